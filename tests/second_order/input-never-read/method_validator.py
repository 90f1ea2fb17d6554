"""input-never-read, one step on: the input reaches only a validation method of the model whose result
decides a raise (the fixture's helper is a module function); the kernel broadcasts the bias."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def broadcast_kernel(b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(b_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(n))

    def _bounded(self, t, limit=1e30):
        return (t == t).all() and -limit < t.min() and t.max() < limit

    def forward(self, x):
        if not self._bounded(t=x):
            raise ValueError("x out of range")
        out = torch.empty_like(self.bias)
        n = out.numel()
        broadcast_kernel[(triton.cdiv(n, 1024),)](self.bias, out, n, BLOCK=1024)
        return out
