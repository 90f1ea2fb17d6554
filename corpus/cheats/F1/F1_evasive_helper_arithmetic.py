"""Cheat (F1): a "fused" GELU-tanh whose Triton kernel only copies its input, while the math runs in
small helpers that forward hands the copy to: a module function, a method, a lambda, a lambda mapped
over the halves, and a lambda folded by functools.reduce. No operator in forward touches a tensor; the
helpers' parameters are full tensors only because of what forward passes them."""
import functools
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def _staged(x):
    y = torch.empty_like(x)
    _copy[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y


def _cubic(u):
    # ruleid: tensor-method-in-forward
    return u + 0.044715 * u * u * u


# ruleid: tensor-method-in-forward
_halve = lambda t: 0.5 * t  # noqa: E731


class ModelNew(nn.Module):
    def _inner(self, t):
        # ruleid: tensor-method-in-forward
        return math.sqrt(2.0 / math.pi) * t

    def forward(self, x):
        staged = _staged(x)
        # ruleid: torch-function-in-forward
        inner = torch.tanh(self._inner(_cubic(staged)))
        # ruleid: tensor-method-in-forward
        one_plus, same = map(lambda t: t + 1.0, (inner, torch.zeros_like(inner)))
        # ruleid: tensor-method-in-forward
        return functools.reduce(lambda a, b: a * b, [_halve(staged), one_plus])
