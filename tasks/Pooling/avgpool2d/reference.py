# 2-D average pooling, 2x2 window, stride 2 (floor mode).
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 8
C = 32
H = 64
W = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
