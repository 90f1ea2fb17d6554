# Dropout (p = 0.1) whose mask comes from a counter-based hash of the seed input: y = x * (u >= p) / (1 - p).
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 256
D = 1024


MASK = 0xFFFFFFFF


def mix32(h):
    h = h ^ (h >> 16)
    h = (h * 0x045D9F3B) & MASK
    h = h ^ (h >> 16)
    h = (h * 0x045D9F3B) & MASK
    h = h ^ (h >> 16)
    return h


def hash_bits(seed, counter):
    key = (seed.to(torch.int64) & 0x7FFFFFFF) * 0x9E3779B9 & MASK
    return mix32((counter + key) & MASK)


class Model(nn.Module):
    def __init__(self, p=0.1):
        super().__init__()
        self.p = p

    def forward(self, x, seed):
        counter = torch.arange(x.numel(), dtype=torch.int64, device=x.device).reshape(x.shape)
        u = (hash_bits(seed, counter) >> 8).to(torch.float32) * (1.0 / 16777216.0)
        keep = (u >= self.p).to(x.dtype)
        return x * keep * (1.0 / (1.0 - self.p))


def get_inputs():
    return [torch.randn(B, D), torch.randint(0, 2**31 - 1, (1,), dtype=torch.int64)]


def get_init_inputs():
    return []
