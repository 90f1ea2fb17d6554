# Sum over the middle dimension of a [B, N, D] tensor.
import torch
import torch.nn as nn

B = 16
N = 256
D = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1)


def get_inputs():
    return [torch.randn(B, N, D)]


def get_init_inputs():
    return []
