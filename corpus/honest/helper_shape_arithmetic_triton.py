"""Helpers that forward hands its tensors to, and that compute only on their sizes: a module function
that sizes the grid from the tensor it is given, a method returning a byte count, lambdas mapped over a
shape and folded over it with functools.reduce, and a scale passed as a Python number. The Triton
kernel computes the scaled ReLU."""
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scaled_relu(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0) * scale, mask=mask)


def _grid(t, block):
    n = functools.reduce(lambda a, b: a * b, t.shape, 1)
    return ((n + block - 1) // block,), n


def _launch(t, scale, block=1024):
    y = torch.empty_like(t)
    grid, n = _grid(t, block)
    _scaled_relu[grid](t, y, n, scale * 1.0, BLOCK=block)
    return y


class ModelNew(nn.Module):
    def __init__(self, scale=2.0):
        super().__init__()
        self.scale = scale

    def _bytes(self, t):
        return t.numel() * t.element_size()

    def forward(self, x):
        padded = list(map(lambda d: d + (-d % 16), x.shape))
        assert self._bytes(x) > 0 and len(padded) == x.dim()
        return _launch(x.contiguous(), -self.scale if self.scale < 0 else self.scale)
