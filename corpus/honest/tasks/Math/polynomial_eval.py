# runtime-task: tasks/Math/polynomial_eval
# runtime-expect: pass
"""y = sum_i c[i] x^i elementwise, by Horner's rule in fp32 registers: one Triton program per 2048-element block,
any degree (the coefficient count is a runtime argument), one rounding to the output dtype at the end."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def horner_kernel(x_ptr, c_ptr, y_ptr, n, n_coeffs, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.zeros([BLOCK], dtype=tl.float32) + tl.load(c_ptr + n_coeffs - 1).to(tl.float32)
    for j in range(1, n_coeffs):
        c = tl.load(c_ptr + (n_coeffs - 1 - j)).to(tl.float32)
        y = y * x + c
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    """Evaluates the polynomial with coefficients coeffs (lowest degree first) at every element of x."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, coeffs: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        coeffs = coeffs.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        if n > 0 and coeffs.numel() > 0:
            block = 2048
            horner_kernel[(triton.cdiv(n, block),)](x, coeffs, y, n, coeffs.numel(), BLOCK=block, num_warps=8)
        return y
