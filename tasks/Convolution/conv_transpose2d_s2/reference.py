# Transposed 2-D convolution, kernel 4, stride 2, padding 1 (2x upsampling), with bias.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 4
C = 32
K = 16
H = 32
W = 32


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size=4, stride=2, padding=1, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, K]
