# torch.gather along dim 1: y[b, j] = x[b, idx[b, j]].
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 128
D = 2048
J = 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        return torch.gather(x, 1, idx)


def get_inputs():
    return [torch.randn(B, D), torch.randint(0, D, (B, J), dtype=torch.int64)]


def get_init_inputs():
    return []
