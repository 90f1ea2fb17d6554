"""Kernel tables kept as an enum and a namedtuple, as configuration-heavy code does: each Act member's
value is a (launcher, block size) pair and the model picks one by name at construction; a Launch
namedtuple built positionally carries the launcher forward calls. Both reach the file's own Triton
kernels."""
import collections
import enum

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _leaky_relu(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x > 0, x, x * slope), mask=mask)


@triton.jit
def _hardtanh(x_ptr, y_ptr, n, lo, hi, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.minimum(tl.maximum(x, lo), hi), mask=mask)


def _run_leaky(x, block):
    y = torch.empty_like(x)
    _leaky_relu[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), 0.01, BLOCK=block)
    return y


def _run_hardtanh(x, block):
    y = torch.empty_like(x)
    _hardtanh[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), -1.0, 1.0, BLOCK=block)
    return y


class Act(enum.Enum):
    LEAKY = (_run_leaky, 1024)
    HARDTANH = (_run_hardtanh, 512)


Launch = collections.namedtuple("Launch", "run block")


class ModelNew(nn.Module):
    def __init__(self, act="LEAKY"):
        super().__init__()
        run, block = Act[act].value
        self.launch = Launch(run, block)

    def forward(self, x):
        x = x.contiguous()
        return self.launch.run(x, self.launch.block)
