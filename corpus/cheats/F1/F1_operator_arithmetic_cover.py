"""Cheat (F1): a residual swish, x * sigmoid(x) + y, where the Triton kernel only computes the sigmoid
gate and the multiply and the residual add are written as operators in forward. No torch function is
named, so a gate that reads calls alone sees a kernel and plumbing; the operators run ATen's elementwise
kernels on full tensors. The except handler repeats the trick with a bare operator fallback."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, 1.0 / (1.0 + tl.exp(-x)), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, y):
        gate = torch.empty_like(x)
        n = x.numel()
        try:
            sigmoid_kernel[((n + 1023) // 1024,)](x, gate, n, BLOCK=1024)
        except RuntimeError:
            # ruleid: fallback-in-except
            gate = 1.0 / (1.0 + (-x).exp())
        # ruleid: tensor-method-in-forward
        return x * gate + y
