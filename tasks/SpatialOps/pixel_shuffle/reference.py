# Pixel shuffle (depth to space) with upscale factor 2.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 4
C = 16
H = 32
W = 32


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.pixel_shuffle(x, 2)


def get_inputs():
    return [torch.randn(N, C * 4, H, W)]


def get_init_inputs():
    return []
