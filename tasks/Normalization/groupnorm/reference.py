# GroupNorm with G groups over NCHW, learned affine.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 4
C = 64
G = 8
H = 32
W = 32


class Model(nn.Module):
    def __init__(self, groups, channels):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels, eps=1e-5)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.normal_(0.0, 0.5)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [G, C]
