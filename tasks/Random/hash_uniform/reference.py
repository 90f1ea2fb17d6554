# Counter-based uniform random numbers: out[i] = hash(seed, i) / 2^24 in [0, 1). The hash is a 32-bit
# integer mix written with int64 torch ops (every product stays below 2^63), so the reference is
# deterministic in its seed input and a kernel can reproduce it bit for bit.
import torch
import torch.nn as nn

N = 1048576

MASK = 0xFFFFFFFF


def mix32(h):
    h = h ^ (h >> 16)
    h = (h * 0x045D9F3B) & MASK
    h = h ^ (h >> 16)
    h = (h * 0x045D9F3B) & MASK
    h = h ^ (h >> 16)
    return h


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, seed):
        counter = torch.arange(self.n, dtype=torch.int64, device=seed.device)
        key = (seed.to(torch.int64) & 0x7FFFFFFF) * 0x9E3779B9 & MASK
        h = mix32((counter + key) & MASK)
        return (h >> 8).to(torch.float32) * (1.0 / 16777216.0)


def get_inputs():
    return [torch.randint(0, 2**31 - 1, (1,), dtype=torch.int64)]


def get_init_inputs():
    return [N]
