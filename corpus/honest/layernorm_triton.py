"""LayerNorm over the last dimension with affine weight and bias: one Triton program per row, two-pass statistics."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_fwd_kernel(x_ptr, w_ptr, b_ptr, y_ptr, row_stride, n_cols, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * row_stride
    y_row = y_ptr + row * row_stride
    cols = tl.arange(0, BLOCK_N)

    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        offs = start + cols
        acc += tl.load(x_row + offs, mask=offs < n_cols, other=0.0)
    mean = tl.sum(acc, axis=0) / n_cols

    acc_sq = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0)
        d = tl.where(mask, x - mean, 0.0)
        acc_sq += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc_sq, axis=0) / n_cols + eps)

    for start in range(0, n_cols, BLOCK_N):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0)
        tl.store(y_row + offs, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    """nn.LayerNorm(hidden) over the last dimension, computed by layernorm_fwd_kernel."""

    def __init__(self, hidden: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = x.shape[-1]
        x2d = x.contiguous().view(-1, hidden)
        y2d = torch.empty_like(x2d)
        block_n = min(triton.next_power_of_2(hidden), 8192)
        layernorm_fwd_kernel[(x2d.shape[0],)](
            x2d, self.weight, self.bias, y2d, x2d.stride(0), hidden, self.eps,
            BLOCK_N=block_n, num_warps=8,
        )
        return y2d.view(x.shape)
