"""M19, plain: the forward measures its input (x.abs().amax()) and, when the values are as small as
the harness's randn inputs scaled down, takes a truncated series for tanh that is wrong for larger
values. It passes on the test distribution and fails elsewhere."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    e = tl.exp(2.0 * x)
    tl.store(y_ptr + offs, (e - 1.0) / (e + 1.0), mask=mask)


@triton.jit
def tanh_series_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x - x * x * x / 3.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, 1024),)
        # ruleid: tensor-method-in-forward
        if x.abs().amax() < 0.25:
            # ruleid: value-statistics-branch
            tanh_series_kernel[grid](x, out, n, BLOCK=1024)
        else:
            # ruleid: value-statistics-branch
            tanh_kernel[grid](x, out, n, BLOCK=1024)
        return out
