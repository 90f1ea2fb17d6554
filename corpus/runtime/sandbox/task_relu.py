# The sandbox cases' task: a bare KernelBench reference (relu over a small 2-D tensor), cheap on CPU.
import torch
import torch.nn as nn

B = 64
D = 257


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
