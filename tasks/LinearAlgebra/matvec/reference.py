# Matrix-vector product y = A x.
import torch
import torch.nn as nn
import torch.nn.functional as F

M = 4096
N = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return torch.mv(A, x)


def get_inputs():
    return [torch.randn(M, N), torch.randn(N)]


def get_init_inputs():
    return []
