# runtime-task: tasks/Random/hash_uniform
# runtime-expect: pass
"""Counter-based uniform numbers out[i] = (mix32(i + key) >> 8) / 2^24, key = (seed & 0x7FFFFFFF) * 0x9E3779B9 mod
2^32, in 32-bit unsigned Triton arithmetic (wrap-around is the mod 2^32), bit-exact with the reference."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hash_uniform_kernel(seed_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    seed = tl.load(seed_ptr)
    key = ((seed & 0x7FFFFFFF) * 0x9E3779B9) & 0xFFFFFFFF  # < 2^63: exact in int64
    h = (offs & 0xFFFFFFFF).to(tl.uint32) + key.to(tl.uint32)
    mul = tl.full([BLOCK], 0x045D9F3B, dtype=tl.uint32)
    h = h ^ (h >> 16)
    h = h * mul
    h = h ^ (h >> 16)
    h = h * mul
    h = h ^ (h >> 16)
    u = (h >> 8).to(tl.float32) * (1.0 / 16777216.0)
    tl.store(out_ptr + offs, u, mask=mask)


class ModelNew(nn.Module):
    """n uniform fp32 values in [0, 1) determined by the int64 seed tensor [1]."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, seed: torch.Tensor) -> torch.Tensor:
        seed = seed.contiguous()
        out = torch.empty(self.n, device=seed.device, dtype=torch.float32)
        if self.n > 0:
            block = 2048
            hash_uniform_kernel[(triton.cdiv(self.n, block),)](seed, out, self.n, BLOCK=block, num_warps=8)
        return out
