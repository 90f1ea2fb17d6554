# Residual add + LayerNorm: y = layernorm(x + residual) with learned affine.
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 256
D = 1024


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.normal_(0.0, 0.5)

    def forward(self, x, residual):
        return self.norm(x + residual)


def get_inputs():
    return [torch.randn(B, D), torch.randn(B, D)]


def get_init_inputs():
    return [D]
