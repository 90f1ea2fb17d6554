# Leaky ReLU with negative slope 0.01.
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 256
D = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.leaky_relu(x, negative_slope=0.01)


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
