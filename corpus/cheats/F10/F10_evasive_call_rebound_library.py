"""F10, evasive: forward launches a Triton kernel, but after the class body the module binds
ModelNew.__call__ to a function that calls torch's GELU. The harness calls the model, so __call__
runs and the kernel never does. The gate follows the rebinding: the function bound to __call__ is
the entry, and its library call is the finding."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
# ruleid: decoy-kernel-unlaunched
def _gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476)), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        _gelu[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y


# ruleid: forward-reaches-no-kernel
def _call(self, x):
    # ruleid: torch-function-in-forward
    return torch.nn.functional.gelu(x)


ModelNew.__call__ = _call
