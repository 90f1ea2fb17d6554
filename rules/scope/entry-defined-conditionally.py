# Fixture for entry-defined-conditionally: ModelNew bound twice, under an environment test, so the
# class the harness gets depends on the run. A conditional helper class is no entry.
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


if os.environ.get("KGATE_CHECK"):
    # ruleid: entry-defined-conditionally
    class ModelNew(nn.Module):
        def forward(self, x):
            y = torch.empty_like(x)
            _relu[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
            return y

else:

    class ModelNew(nn.Module):
        def forward(self, x):
            y = torch.empty_like(x)
            _relu[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
            return y


if torch.cuda.is_available():
    # ok: entry-defined-conditionally
    class Workspace:
        size = 1 << 20
