# Lower-triangular times dense: C = tril(A) @ B.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 512
P = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(torch.tril(A), B)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, P)]


def get_init_inputs():
    return []
