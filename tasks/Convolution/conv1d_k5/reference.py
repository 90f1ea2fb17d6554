# 1-D convolution, kernel 5, stride 1, padding 2, with bias.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 8
C = 32
K = 64
L = 512


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size=5, stride=1, padding=2, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(N, C, L)]


def get_init_inputs():
    return [C, K]
