"""torch.cumsum(x, dim) with Triton: one program per scanned line, tl.cumsum inside each block and a scalar
carry between blocks, so lines of any length work."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def line_cumsum_kernel(x_ptr, y_ptr, length, inner, BLOCK: tl.constexpr):
    line = tl.program_id(0).to(tl.int64)
    outer_idx = line // inner
    inner_idx = line % inner
    base = outer_idx * length * inner + inner_idx
    offs = tl.arange(0, BLOCK)

    carry = 0.0
    for start in range(0, length, BLOCK):
        pos = start + offs
        mask = pos < length
        ptr_off = base + pos.to(tl.int64) * inner
        x = tl.load(x_ptr + ptr_off, mask=mask, other=0.0)
        scanned = tl.cumsum(x, axis=0)
        tl.store(y_ptr + ptr_off, scanned + carry, mask=mask)
        carry = carry + tl.sum(x, axis=0)


class ModelNew(nn.Module):
    """torch.cumsum(x, dim=self.dim) for fp32 input."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def _scan(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % len(x.shape)
        outer = 1
        for size in x.shape[:dim]:
            outer *= size
        inner = 1
        for size in x.shape[dim + 1:]:
            inner *= size
        length = x.shape[dim]
        y = torch.empty_like(x)
        block = min(2048, triton.next_power_of_2(length))
        line_cumsum_kernel[(outer * inner,)](x, y, length, inner, BLOCK=block, num_warps=8)
        return y

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self._scan(x.contiguous())
