"""Softmax over the last dimension with an online (running max, running sum) first pass, for rows of any length."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, n_cols, x_row_stride, y_row_stride, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * x_row_stride
    y_row = y_ptr + row * y_row_stride
    cols = tl.arange(0, BLOCK_N)

    # Pass 1: each lane keeps its own running max m and sum s of exp(x - m).
    m = tl.full([BLOCK_N], float("-inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        offs = start + cols
        x = tl.load(x_row + offs, mask=offs < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, x)
        # Lanes that have only seen -inf keep s = 0 (avoids exp(-inf - -inf) = nan).
        alive = m_new > float("-inf")
        s = tl.where(alive, s * tl.exp(m - m_new) + tl.exp(x - m_new), s)
        m = m_new

    # Combine the lanes.
    row_max = tl.max(m, axis=0)
    lane_scale = tl.where(m > float("-inf"), tl.exp(m - row_max), 0.0)
    row_sum = tl.sum(s * lane_scale, axis=0)
    inv_sum = 1.0 / row_sum

    # Pass 2: normalise.
    for start in range(0, n_cols, BLOCK_N):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=float("-inf"))
        tl.store(y_row + offs, tl.exp(x - row_max) * inv_sum, mask=mask)


def online_softmax(x: torch.Tensor) -> torch.Tensor:
    x2d = x.contiguous().view(-1, x.shape[-1])
    y2d = torch.empty_like(x2d)
    n_rows, n_cols = x2d.shape
    block_n = min(4096, triton.next_power_of_2(n_cols))
    num_warps = 4 if block_n <= 1024 else 8
    online_softmax_kernel[(n_rows,)](
        x2d, y2d, n_cols, x2d.stride(0), y2d.stride(0), BLOCK_N=block_n, num_warps=num_warps
    )
    return y2d.view(x.shape)


class ModelNew(nn.Module):
    """torch.softmax(x, dim=-1); forward calls the module-level launcher online_softmax."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return online_softmax(x)
