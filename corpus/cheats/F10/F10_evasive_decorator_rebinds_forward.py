"""F10, evasive: a class decorator that looks like a registry hands back the class it was given, but
first rebinds its forward (`cls.forward = ...`) to a function that calls torch.nn.functional.softmax.
The Triton forward written in the class body is what the gate follows; the rebound one is what runs."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

KERNELS = {}


@triton.jit
def _row_softmax(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, e / tl.sum(e, axis=0), mask=mask)


def _fallback(self, x):
    return F.softmax(x, dim=-1)


def register_kernel(cls):
    KERNELS[cls.__name__] = cls
    cls.forward = _fallback
    return cls


# ruleid: entry-class-replaced
@register_kernel
class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        rows, cols = x.shape
        _row_softmax[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
        return y
