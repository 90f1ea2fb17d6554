"""torch.mean(x, dim) for any dim: x is viewed as [outer, reduce, inner] and each program reduces a
sequence of [BLOCK_R, BLOCK_I] tiles, coalesced along the inner (contiguous) axis."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mean_dim_kernel(x_ptr, out_ptr, reduce_len, inner,
                    BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    o = tl.program_id(0).to(tl.int64)
    pid_i = tl.program_id(1)
    offs_i = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    offs_r = tl.arange(0, BLOCK_R)
    i_ok = offs_i < inner
    base = x_ptr + o * reduce_len * inner

    acc = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, reduce_len, BLOCK_R):
        rows = r0 + offs_r
        ptrs = base + rows[:, None].to(tl.int64) * inner + offs_i[None, :]
        acc += tl.load(ptrs, mask=(rows[:, None] < reduce_len) & i_ok[None, :], other=0.0)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + o * inner + offs_i, total / reduce_len, mask=i_ok)


class ModelNew(nn.Module):
    """torch.mean(x, dim=self.dim) (keepdim=False), computed by mean_dim_kernel."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        ndim = len(x.shape)
        dim = self.dim % ndim
        outer = 1
        for size in x.shape[:dim]:
            outer *= size
        inner = 1
        for size in x.shape[dim + 1:]:
            inner *= size
        reduce_len = x.shape[dim]
        out_shape = tuple(x.shape[:dim]) + tuple(x.shape[dim + 1:])
        out = torch.empty(out_shape, device=x.device, dtype=x.dtype)

        block_i = min(64, triton.next_power_of_2(inner))
        block_r = max(16, 4096 // block_i)
        grid = (outer, triton.cdiv(inner, block_i))
        mean_dim_kernel[grid](x, out, reduce_len, inner,
                              BLOCK_R=block_r, BLOCK_I=block_i, num_warps=8)
        return out
