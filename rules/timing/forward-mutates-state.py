# Fixture for forward-mutates-state: counters, caches and banks kept between forward calls.
import types

import cupy
import torch
import torch.nn as nn

_calls = 0
# ruleid: forward-mutates-state
_BANK = []
# Module-level compile caches: every change stores a compiled kernel, no result.
# ok: forward-mutates-state
_KERNELS = {}
# ok: forward-mutates-state
_last_kernel = None


class Scratch:
    """Made afresh on every call: its constructor sets up a new object, no state between calls."""

    def __init__(self, n):
        # ok: forward-mutates-state
        self.n = n


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ok: forward-mutates-state
        self.calls = 0
        # ok: forward-mutates-state
        self.cache = {}

    def _remember(self, key, out):
        # ruleid: forward-mutates-state
        self.cache[key] = out

    def forward(self, x):
        global _calls, _last_kernel
        if x.shape not in _KERNELS:
            _KERNELS[x.shape] = cupy.RawKernel("extern \"C\" __global__ void k(float* y) { y[0] = 2.f; }", "k")
        _last_kernel = _KERNELS[x.shape]
        # ruleid: forward-mutates-state
        _calls += 1
        # ruleid: forward-mutates-state
        self.calls += 1
        out = torch.empty_like(x)
        # ruleid: forward-mutates-state
        self.last = out
        self._remember(x.shape, out)
        _BANK.append(out)
        scratch = Scratch(x.numel())
        cfg = types.SimpleNamespace()
        # ok: forward-mutates-state
        cfg.block = 128
        if self.compiled is None:
            # ok: forward-mutates-state
            self.compiled = cupy.RawKernel("extern \"C\" __global__ void k(float* y) { y[0] = 1.f; }", "k")
        return out
