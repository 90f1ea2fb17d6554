"""Honest: the model class is built by a factory that closes over the block size, and the module binds
ModelNew to what the factory returns. The factory returns the class it defines, so that class's
forward is the entry, and it launches the file's own Triton kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


def _make_model(block):
    class ReluModel(nn.Module):
        def forward(self, x):
            x = x.contiguous()
            y = torch.empty_like(x)
            n = x.numel()
            relu_kernel[(triton.cdiv(n, block),)](x, y, n, BLOCK=block)
            return y

    return ReluModel


ModelNew = _make_model(1024)
