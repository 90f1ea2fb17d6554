"""F10, evasive: ModelNew's own forward launches a Triton kernel, and the gate follows it; after the
class body a "tuning patch" rebinds ModelNew.forward to a function that calls torch.matmul. The
harness builds ModelNew and calls the patched forward: the kernel in the class body never runs. The
gate follows the rebinding (a statement of the module body, a function of this file) and judges the
patched forward as the entry."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
# ruleid: decoy-kernel-unlaunched
def _scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 1.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(a)
        n = a.numel()
        _scale_kernel[(triton.cdiv(n, 1024),)](a, out, n, BLOCK=1024)
        return out


# ruleid: forward-reaches-no-kernel
def _tuned_forward(self, a, b):
    # ruleid: torch-function-in-forward
    return torch.matmul(a, b)


ModelNew.forward = _tuned_forward
