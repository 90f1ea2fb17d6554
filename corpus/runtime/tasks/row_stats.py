"""Runtime corpus task (KernelBench layout) whose forward returns two tensors: the mean and the maximum
of each row. Each output is compared on its own; a candidate must get both right."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.mean(dim=-1), x.amax(dim=-1)


batch = 64
dim = 300


def get_inputs():
    return [torch.randn(batch, dim)]


def get_init_inputs():
    return []
