# Fixture for value-statistics-branch: the algorithm chosen from the inputs' values.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


@triton.jit
def scale_kernel_truncated(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, (tl.load(x_ptr + offs, mask=offs < n) * 2.0).to(tl.float16), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        out = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, 1024),)
        if not torch.isfinite(x).all():
            # ok: value-statistics-branch
            raise ValueError("inputs must be finite")
        small = x.abs().amax() < 0.5
        if small:
            # ruleid: value-statistics-branch
            scale_kernel_truncated[grid](x, out, n, BLOCK=1024)
        else:
            # ruleid: value-statistics-branch
            scale_kernel[grid](x, out, n, BLOCK=1024)
        if y.norm() > 10.0:
            # ruleid: value-statistics-branch
            out = torch.tanh(out)
        if x.shape[0] > 4096:
            # ok: value-statistics-branch
            scale_kernel[grid](x, out, n, BLOCK=1024)
        return out
