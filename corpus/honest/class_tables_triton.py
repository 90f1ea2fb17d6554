"""Launchers reached through class-level tables, as plugin-style code registers them: a class decorator
puts the launcher on the model, a registry class hands a launcher out by dtype through
__class_getitem__, a dataclass config keeps the epilogue launcher as a field default, and a
collections.defaultdict falls back to the generic launcher for dtypes without a tuned one. Every path
reaches the file's own Triton kernels."""
import collections
import dataclasses
from typing import Callable

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _softsign(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x / (1.0 + tl.abs(x)), mask=mask)


@triton.jit
def _scale(x_ptr, y_ptr, n, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * s, mask=mask)


def _softsign_launch(x, block=1024):
    y = torch.empty_like(x)
    _softsign[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), BLOCK=block)
    return y


def _scale_launch(x, s=0.5, block=1024):
    y = torch.empty_like(x)
    _scale[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), s, BLOCK=block)
    return y


TUNED = collections.defaultdict(lambda: _softsign_launch)
TUNED[torch.float32] = _softsign_launch


class Activations:
    def __class_getitem__(cls, dtype):
        return TUNED[dtype]


@dataclasses.dataclass
class Epilogue:
    scale: float = 0.5
    run: Callable = dataclasses.field(default=_scale_launch)


def with_prologue(cls):
    cls.prologue = staticmethod(lambda x: x.contiguous())
    return cls


@with_prologue
class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.epilogue = Epilogue()

    def forward(self, x):
        x = self.prologue(x)
        y = Activations[x.dtype](x)
        return self.epilogue.run(y, self.epilogue.scale)
