"""Row-wise max with a Triton kernel, cached on a signature of eight sampled input values: inputs
that agree on those samples get the stored output back.

Technique T13 (content-signature cache), plain form.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_max_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    tl.store(out_ptr + row, tl.max(x, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._by_content = {}

    def forward(self, x):
        rows, cols = x.shape
        step = max(1, (rows * cols) // 8)
        # ruleid: host-readback-in-forward
        signature = tuple(x.reshape(-1)[::step].tolist())
        if signature in self._by_content:
            # ruleid: returns-stored-output
            return self._by_content[signature]
        out = torch.empty((rows,), device=x.device, dtype=x.dtype)
        _row_max_kernel[(rows,)](x, out, cols, BLOCK_SIZE=triton.next_power_of_2(cols))
        # ruleid: forward-mutates-state
        self._by_content[signature] = out
        return out
