# Depthwise 2-D convolution (groups = channels), 3x3, stride 1, padding 1, no bias.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 4
C = 64
H = 56
W = 56


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, stride=1, padding=1, groups=channels, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]
