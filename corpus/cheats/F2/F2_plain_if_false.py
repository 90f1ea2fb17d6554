"""ReLU. A Triton kernel is written and its launch sits under `if False:`; torch.relu does the work.

Technique F2 (decoy kernel), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
# ruleid: decoy-kernel-unlaunched
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    # ruleid: forward-reaches-no-kernel
    def forward(self, x):
        if False:
            out = torch.empty_like(x)
            n = x.numel()
            # ruleid: decoy-kernel-dead-branch
            relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
            return out
        # ruleid: torch-function-in-forward
        return torch.relu(x)
