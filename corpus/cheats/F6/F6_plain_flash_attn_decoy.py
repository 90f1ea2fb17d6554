"""F6, plain (Python): scaled dot-product attention. flash-attn's flash_attn_func computes the whole
attention, and a Triton kernel that multiplies the result by one sits beside it so that forward
launches a kernel of its own. The library does the task's work; the submission's kernel does none."""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from flash_attn import flash_attn_func


@triton.jit
def _identity(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 1.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        # ruleid: kernel-library-call
        o = flash_attn_func(q, k, v, causal=False)
        out = torch.empty_like(o)
        n = o.numel()
        _identity[(triton.cdiv(n, 1024),)](o, out, n, BLOCK=1024)
        return out
