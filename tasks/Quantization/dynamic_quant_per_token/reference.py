# Dynamic asymmetric uint8 quantization per token (row): scale = (max - min) / 255, zero_point = round(-min / scale), q = clamp(round(x / scale) + zero_point, 0, 255). Returns the codes as fp32.
import torch
import torch.nn as nn
import torch.nn.functional as F

T = 512
D = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        lo = torch.amin(x, dim=1, keepdim=True).clamp_max(0.0)
        hi = torch.amax(x, dim=1, keepdim=True).clamp_min(0.0)
        scale = ((hi - lo) / 255.0).clamp_min(1e-12)
        zero_point = torch.round(-lo / scale)
        return torch.clamp(torch.round(x / scale) + zero_point, 0.0, 255.0)


def get_inputs():
    return [torch.randn(T, D)]


def get_init_inputs():
    return []
