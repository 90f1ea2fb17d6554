"""F1 through library functions held as values: the GEMM is torch.mm taken from a dict, a tuple, a
class attribute wrapped in staticmethod, and a function that returns torch.matmul. No line calls
torch.mm by name; each call through the value is the library's GEMM all the same. The Triton kernel
only applies the bias and ReLU."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_kernel(x_ptr, b_ptr, y_ptr, n, cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m) + tl.load(b_ptr + offs % cols, mask=m)
    tl.store(y_ptr + offs, tl.maximum(v, 0.0), mask=m)


GEMMS = {"tiled": torch.mm, "linear": F.linear}
BATCHED = (torch.bmm, torch.baddbmm)


def _gemm_impl():
    return torch.matmul


def _bias_relu(x, b):
    y = torch.empty_like(x)
    n = x.numel()
    bias_relu_kernel[(triton.cdiv(n, 1024),)](x, b, y, n, x.shape[-1], BLOCK=1024)
    return y


class ModelNew(nn.Module):
    gemm = staticmethod(torch.mm)

    def __init__(self, k, n):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(k, n))
        self.bias = nn.Parameter(torch.zeros(n))

    def forward(self, x):
        # ruleid: torch-function-in-forward
        h = GEMMS["tiled"](x, self.weight)
        # ruleid: torch-function-in-forward, tensor-method-in-forward
        h = h + BATCHED[0](x[None], self.weight[None])[0]
        # ruleid: torch-function-in-forward, tensor-method-in-forward
        h = h + self.gemm(x, self.weight)
        # ruleid: torch-function-in-forward, tensor-method-in-forward
        h = h + _gemm_impl()(x, self.weight)
        return _bias_relu(h.contiguous(), self.bias)
