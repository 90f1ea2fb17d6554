"""Linear + ReLU. ModelNew *is* an nn.Linear: super().forward does the GEMM, and a Triton kernel
applies the ReLU.

Technique F4 (inheritance bypass), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0), mask=mask)


# ruleid: inheritance-bypass
class ModelNew(nn.Linear):
    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)

    def forward(self, x):
        # ruleid: super-forward-call
        y = super().forward(x)
        out = torch.empty_like(y)
        n = y.numel()
        _relu_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK_SIZE=1024)
        return out
