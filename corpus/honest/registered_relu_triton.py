"""An honest Triton ReLU whose class goes through a registry decorator that records it and tags it
(`cls.op_name = ...`), with a class attribute set after the body. Neither touches a method: the
forward the harness calls is the one written in the class."""
import torch
import torch.nn as nn
import triton
import triton.language as tl

OPS = {}


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


def register_op(cls):
    OPS[cls.__name__] = cls
    cls.op_name = "relu"
    return cls


@register_op
class ModelNew(nn.Module):
    def __new__(cls, *args, **kwargs):
        return super().__new__(cls)

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y


ModelNew.supports_bf16 = False
