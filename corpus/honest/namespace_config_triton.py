"""A model configured through a types.SimpleNamespace that carries its launcher and block size, as
config-driven code does: forward calls self.cfg.launch, which the namespace was built with, so the
call reaches the Triton kernel."""
import types

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _hardtanh(x_ptr, y_ptr, n, lo, hi, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.minimum(tl.maximum(x, lo), hi), mask=mask)


def _launch(x, block):
    x = x.contiguous()
    y = torch.empty_like(x)
    _hardtanh[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), -1.0, 1.0, BLOCK=block)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = types.SimpleNamespace(launch=_launch, block=1024)

    def forward(self, x):
        return self.cfg.launch(x, self.cfg.block)
