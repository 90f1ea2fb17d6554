"""Elementwise tanh with a Triton kernel, launched on a private stream so that the harness's
events on the current stream record nothing.

Technique T1 (side stream), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _tanh_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    e = tl.exp(-2.0 * tl.abs(x))
    t = (1.0 - e) / (1.0 + e)
    tl.store(out_ptr + offsets, tl.where(x >= 0, t, -t), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: side-stream
        self.side = torch.cuda.Stream()

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        # ruleid: side-stream
        with torch.cuda.stream(self.side):
            _tanh_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        return out
