"""F1 through values a class holds: the GEMM is torch.mm read from a helper class (a staticmethod on
`Ops`), the activation comes from a descriptor whose __get__ hands back torch.nn.functional.gelu, and
the reduction is fetched with operator.attrgetter. No line of forward names a torch function; the
Triton kernel only adds the bias."""
import operator

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def add_bias_kernel(x_ptr, b_ptr, y_ptr, n, cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(b_ptr + offs % cols, mask=m), mask=m)


class Ops:
    product = staticmethod(torch.mm)


class Activation:
    def __get__(self, obj, objtype=None):
        return F.gelu


class ModelNew(nn.Module):
    activation = Activation()

    def __init__(self, k: int = 64, n: int = 64):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(k, n))
        self.bias = nn.Parameter(torch.zeros(n))

    def forward(self, x):
        # ruleid: torch-function-in-forward
        h = Ops.product(x, self.weight)
        y = torch.empty_like(h)
        n = h.numel()
        add_bias_kernel[(triton.cdiv(n, 1024),)](h, self.bias, y, n, h.shape[-1], BLOCK=1024)
        # ruleid: torch-function-in-forward
        y = self.activation(y)
        # ruleid: torch-function-in-forward, obfuscated-api-name
        return operator.attrgetter("tanh")(torch)(y)
