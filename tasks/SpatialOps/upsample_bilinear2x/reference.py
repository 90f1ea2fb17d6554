# Bilinear 2x upsampling of an NCHW image (align_corners=False, the PyTorch default).
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 4
C = 16
H = 64
W = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
