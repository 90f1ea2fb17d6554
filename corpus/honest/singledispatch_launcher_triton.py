"""Launch plumbing through functools.singledispatch and function attributes: `scale` dispatches on the
argument's type, its torch.Tensor implementation launches the file's Triton kernel, and a list of
tensors is scaled one by one. The launch block size and the launcher itself hang off the dispatcher as
function attributes, and a registering lambda decorator returns each function unchanged."""
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl

_KEEP = []


@triton.jit
def _scale_kernel(x_ptr, y_ptr, n, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * s, mask=mask)


@(lambda f: _KEEP.append(f) or f)
def _launch(x, s, block):
    y = torch.empty_like(x)
    _scale_kernel[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), s, BLOCK=block)
    return y


@functools.singledispatch
def scale(x, s):
    raise TypeError(f"cannot scale {type(x).__name__}")


@scale.register(torch.Tensor)
def _(x, s):
    return scale.launch(x.contiguous(), s, scale.block)


@scale.register(list)
def _(xs, s):
    return [scale(x, s) for x in xs]


scale.launch = _launch
scale.block = 1024


class ModelNew(nn.Module):
    def __init__(self, factor=2.0):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        return scale(x, self.factor)
