# 2-D max pooling, 3x3 window, stride 2, padding 1 (padding never wins: it is -inf).
import torch
import torch.nn as nn

N = 8
C = 32
H = 64
W = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
