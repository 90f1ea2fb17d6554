"""A model that delegates unknown attribute reads to a config object through __getattr__ (a pattern
of wrapper modules), while forward calls only its own method and attributes set in __init__: those
resolve as usual, and the Triton kernel does the work."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _leaky_relu(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x > 0, x, x * slope), mask=mask)


class _Config:
    negative_slope = 0.01
    block = 1024


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = _Config()
        self.launch = self._launch

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self.__dict__["config"], name)

    def _launch(self, x, y):
        n = x.numel()
        _leaky_relu[(triton.cdiv(n, 1024),)](x, y, n, 0.01, BLOCK=1024)

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        self.launch(x, y)
        return y
