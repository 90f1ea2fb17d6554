"""Honest: launchers of the file's own Triton kernel, one per block size, built once and stored into a
dict by subscript in __init__; forward picks one by the input's size and calls it. The called element
is a closure that _make_launcher returns, so the gate follows the dict's fills to the kernel launch."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


def _make_launcher(block):
    def launch(x):
        y = torch.empty_like(x)
        _relu[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), BLOCK=block)
        return y

    return launch


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.launchers = {}
        for block in (256, 1024):
            self.launchers[block] = _make_launcher(block)

    def forward(self, x):
        return self.launchers[1024 if x.numel() > 4096 else 256](x)
