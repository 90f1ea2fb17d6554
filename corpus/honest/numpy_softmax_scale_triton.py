"""Scaled row softmax in Triton whose launcher computes its constants with NumPy: the scale
1/sqrt(d) and the block size (the next power of two of the row length). NumPy only ever sees numbers
from the module's configuration and the input's shape, never the input's values, so the host does no
part of the task's work."""
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scaled_softmax(x_ptr, y_ptr, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")) * scale
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, head_dim=64):
        super().__init__()
        self.scale = float(1.0 / np.sqrt(head_dim))

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        block = int(2 ** np.ceil(np.log2(cols)))
        y = torch.empty_like(x)
        _scaled_softmax[(rows,)](x, y, cols, self.scale, BLOCK=block)
        return y
