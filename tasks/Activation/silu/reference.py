# SiLU (swish): y = x * sigmoid(x).
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 256
D = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.silu(x)


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
