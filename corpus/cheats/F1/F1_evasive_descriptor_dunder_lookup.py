"""F1 through attribute lookups that run code: the Triton kernel applies ReLU, then the epilogue is
PyTorch reached three ways that name no torch function in call position. A @property returns
torch.sigmoid (reading self.finish runs the getter, which hands the function out), the tensor's own
__getattribute__ fetches its tanh method, and object.__getattribute__ fetches gelu from the functional
module, as getattr would."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


def _relu(x):
    y = torch.empty_like(x)
    relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y


class ModelNew(nn.Module):
    @property
    def finish(self):
        return torch.sigmoid

    def forward(self, x):
        y = _relu(x.contiguous())
        # ruleid: torch-function-in-forward
        y = self.finish(y)
        # ruleid: tensor-method-in-forward
        y = y.__getattribute__("tanh")()
        # ruleid: torch-function-in-forward
        return object.__getattribute__(F, "gelu")(y)
