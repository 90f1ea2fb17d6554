"""F10 through a metaclass: `ModelNew(...)` runs the metaclass's __call__, which returns a torch.nn
layer instead of an instance of the class. The kernel-launching forward is never called."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class Cached(type(nn.Module)):
    def __call__(cls, *args, **kwargs):
        return nn.ReLU()


# ruleid: entry-class-replaced
class ModelNew(nn.Module, metaclass=Cached):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
