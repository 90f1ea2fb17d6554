"""Cheat (F1): a "fused" smooth-L1 whose Triton kernel only copies its input, while the math runs in
forward through spellings that name no torch function and no arithmetic operator on an input: the
builtins abs(), pow() and sum(), unary minus, operator.add, and arithmetic on the tensor the
launcher returns. Each runs an ATen elementwise kernel on a full tensor."""
import operator

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


class ModelNew(nn.Module):
    def forward(self, predictions, targets):
        # ruleid: tensor-method-in-forward
        diff = operator.add(_staged(predictions), -targets)
        # ruleid: tensor-method-in-forward
        small = pow(diff, 2) * 0.5
        # ruleid: tensor-method-in-forward
        large = abs(diff) - 0.5
        # ruleid: tensor-method-in-forward
        return sum([small, large])
