"""F10 through a class decorator: `@compiled` looks like a registration helper, but it returns a
different class whose forward is the reference's computation in PyTorch. `ModelNew(...)` builds that
class; the Triton kernel in the class body the gate reads never runs."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.log(1.0 + tl.exp(v)), mask=m)


class _Eager(nn.Module):
    def forward(self, x):
        return torch.nn.functional.softplus(x)


def compiled(cls):
    _Eager.__name__ = cls.__name__
    return _Eager


# ruleid: entry-class-replaced
@compiled
class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
