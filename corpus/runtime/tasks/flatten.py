# Runtime corpus task (bare KernelBench file): flatten every dimension after the batch into one.
import torch
import torch.nn as nn

B = 32
C = 8
H = 16
W = 16


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.flatten(x, start_dim=1)


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return []
