# RMSNorm (learned scale) followed by a linear projection without bias.
import torch
import torch.nn as nn
import torch.nn.functional as F

M = 256
D = 512
N = 512


class Model(nn.Module):
    def __init__(self, dim, out_features, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.proj = nn.Linear(dim, out_features, bias=False)

    def forward(self, x):
        h = x * torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True) + self.eps) * self.weight
        return self.proj(h)


def get_inputs():
    return [torch.randn(M, D)]


def get_init_inputs():
    return [D, N]
