# 2-D convolution, 3x3 kernel, stride 1, padding 1, with bias.
import torch
import torch.nn as nn

N = 4
C = 32
K = 64
H = 32
W = 32


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=1, padding=1, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, K]
