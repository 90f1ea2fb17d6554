"""Cumulative sum along rows with a Triton kernel. The first call computes the output once and
banks copies of it; the following calls return from the bank without launching anything.

Technique T11 (batch-and-skip), plain form: a bank held on self.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_cumsum_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * n_cols + cols, tl.cumsum(x, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, bank_size=64):
        super().__init__()
        self.bank_size = bank_size
        self._bank = []
        self._cursor = 0

    def forward(self, x):
        if self._cursor < len(self._bank):
            # ruleid: forward-mutates-state
            self._cursor += 1
            # ruleid: returns-stored-output
            return self._bank[self._cursor - 1]
        rows, cols = x.shape
        out = torch.empty_like(x)
        _row_cumsum_kernel[(rows,)](x, out, cols, BLOCK_SIZE=triton.next_power_of_2(cols))
        # ruleid: forward-mutates-state
        self._bank = [out] * self.bank_size
        # ruleid: forward-mutates-state
        self._cursor = 1
        return out
