# A bare KernelBench-style loss whose targets are ±1 stored as floats: any other value is outside the
# task, and a kernel may rely on it.
import torch
import torch.nn as nn

batch_size = 512
dim = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


def get_inputs():
    return [torch.rand(batch_size, dim), torch.randint(0, 2, (batch_size, 1)).float() * 2 - 1]


def get_init_inputs():
    return []
