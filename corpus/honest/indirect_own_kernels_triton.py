"""Honest twin of the indirection cheats: the same mechanisms (a table of kernels chosen by dtype, a
staticmethod, functools.reduce, a forward pre-hook, a child registered with add_module, an unpacked
ModuleList) carry only the submission's own Triton kernels, so every path ends in its kernel."""
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_add_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, x * alpha + y, mask=m)


@triton.jit
def scale_add_kernel_wide(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    # Two elements per lane for fp64, where the loads are twice as wide.
    offs = tl.program_id(0) * BLOCK * 2 + tl.arange(0, BLOCK * 2)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * alpha + tl.load(y_ptr + offs, mask=m), mask=m)


KERNELS = {torch.float32: scale_add_kernel, torch.float64: scale_add_kernel_wide}


def _scale_add(x, y, alpha=1.0):
    out = torch.empty_like(x)
    n = x.numel()
    KERNELS[x.dtype][(triton.cdiv(n, 1024),)](x, y, out, n, alpha, BLOCK=1024)
    return out


def _check_contiguous(module, inputs):
    for t in inputs:
        if not t.is_contiguous():
            raise ValueError("inputs must be contiguous")


class ScaleAdd(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x, y):
        return _scale_add(x, y, self.alpha)


class ModelNew(nn.Module):
    combine = staticmethod(_scale_add)

    def __init__(self):
        super().__init__()
        self.add_module("first", ScaleAdd(0.5))
        self.stages = nn.ModuleList([ScaleAdd(2.0), ScaleAdd(1.0)])
        self.register_forward_pre_hook(_check_contiguous)

    def forward(self, x, y):
        x = x.contiguous()
        y = y.contiguous()
        h = self.first(x, y)
        double, single = self.stages
        h = double(h, y)
        h = single(h, x)
        h = functools.reduce(_scale_add, [h, x, y])
        return self.combine(h, y)
