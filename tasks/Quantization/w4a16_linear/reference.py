# W4A16 linear: 4-bit weights packed two per byte with one fp scale per group of GS input features (zero point 8), times 16-bit (or fp32) activations. y = x @ dequant(w)^T.
import torch
import torch.nn as nn
import torch.nn.functional as F

M = 64
N = 512
K = 512
GS = 128


def dequantize_int4(packed, scales, group_size):
    low = packed & 0xF
    high = (packed >> 4) & 0xF
    codes = torch.stack([low, high], dim=-1).reshape(packed.shape[0], packed.shape[1] * 2)
    return (codes.to(torch.float32) - 8.0) * scales.to(torch.float32).repeat_interleave(group_size, dim=1)


class Model(nn.Module):
    def __init__(self, group_size):
        super().__init__()
        self.group_size = group_size

    def forward(self, x, packed, scales):
        w = dequantize_int4(packed, scales, self.group_size)
        return torch.matmul(x.to(torch.float32), w.t()).to(x.dtype)


def get_inputs():
    return [torch.randn(M, K), torch.randint(0, 256, (N, K // 2), dtype=torch.uint8), torch.rand(N, K // GS) * 0.02 + 0.005]


def get_init_inputs():
    return [GS]
