# Runtime corpus task: the sum of each row of a 2-D fp32 tensor, with hidden shapes (task.yaml).
import torch
import torch.nn as nn

M = 128
N = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1)


def get_inputs():
    return [torch.randn(M, N)]


def get_init_inputs():
    return []
