"""An elementwise chain written as a loop: forward walks a tuple of its own Triton kernels and feeds
each one's output to the next, then repeats a residual block `num_blocks` times. Each pass rebinds
`x` to a fresh buffer the kernel writes, so what forward returns is the last kernel's output, not its
input, and every kernel in the tuple is launched through the loop variable."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.where(v > 0, v, 0.01 * v), mask=m)


@triton.jit
def clamp_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.minimum(tl.maximum(tl.load(x_ptr + offs, mask=m), -1.0), 1.0), mask=m)


@triton.jit
def residual_half_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, v + 0.5 * v, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_blocks):
        super().__init__()
        self.num_blocks = num_blocks

    def forward(self, x):
        x = x.contiguous()
        n = x.numel()
        grid = (triton.cdiv(n, 1024),)
        for kernel in (leaky_relu_kernel, clamp_kernel):
            out = torch.empty_like(x)
            kernel[grid](x, out, n, BLOCK=1024)
            x = out
        for _ in range(self.num_blocks):
            out = torch.empty_like(x)
            residual_half_kernel[grid](x, out, n, BLOCK=1024)
            x = out
        return x
