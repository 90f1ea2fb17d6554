"""F1 through functions that call what they are given: functools.reduce(torch.mm, ...), map(F.gelu,
...), operator.methodcaller("matmul", w) and torch.utils.checkpoint.checkpoint(torch.softmax, ...).
PyTorch computes every step; the Triton kernel only copies the result out."""
import functools
import operator

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class ModelNew(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(d, d))
        self.w2 = nn.Parameter(torch.randn(d, d))

    def forward(self, x):
        # ruleid: torch-function-in-forward
        h = functools.reduce(torch.mm, [x, self.w1, self.w2])
        # ruleid: torch-function-in-forward
        h = list(map(F.gelu, [h]))[0]
        # ruleid: tensor-method-in-forward
        h = operator.methodcaller("matmul", self.w1)(h)
        # ruleid: torch-function-in-forward
        h = torch.utils.checkpoint.checkpoint(torch.softmax, h, -1, use_reentrant=False)
        out = torch.empty_like(h)
        copy_kernel[(triton.cdiv(h.numel(), 1024),)](h, out, h.numel(), BLOCK=1024)
        return out
