"""A launcher handed out by a context manager that pins the kernel's block size for the duration of the
call (a pattern of tuning code): `with _Tuned(512) as launch:` binds what __enter__ returns, a bound
method of the file that launches the Triton kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _square(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * x, mask=mask)


class _Tuned:
    def __init__(self, block):
        self.block = block

    def launch(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        _square[(triton.cdiv(x.numel(), self.block),)](x, y, x.numel(), BLOCK=self.block)
        return y

    def __enter__(self):
        return self.launch

    def __exit__(self, *exc):
        return False


class ModelNew(nn.Module):
    def forward(self, x):
        with _Tuned(512) as launch:
            return launch(x)
