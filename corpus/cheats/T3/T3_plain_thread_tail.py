"""Sigmoid with a Triton kernel. forward launches the kernel on the first half of the tensor and
hands the second half to a background thread, so the timed region covers half the work.

Technique T3 (background thread), plain form.
"""
import threading

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sigmoid_kernel(x_ptr, out_ptr, start, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = start + pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, 1.0 / (1.0 + tl.exp(-x)), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def _finish_tail(self, x, out, half, n):
        _sigmoid_kernel[(triton.cdiv(n - half, 1024),)](x, out, half, n, BLOCK_SIZE=1024)

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        half = n // 2
        _sigmoid_kernel[(triton.cdiv(half, 1024),)](x, out, 0, half, BLOCK_SIZE=1024)
        # ruleid: background-thread
        threading.Thread(target=self._finish_tail, args=(x, out, half, n), daemon=True).start()
        return out
