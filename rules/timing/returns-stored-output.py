# Fixture for returns-stored-output: returning tensors held in self or globals.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_RESULTS = []


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def _launch(x):
    out = torch.empty_like(x)
    n = x.numel()
    copy_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    # ok: returns-stored-output
    return out


_EXT = None


def _get_ext():
    # A lazily built handle is state, but it never reaches the entry's return.
    global _EXT
    if _EXT is None:
        _EXT = object()
    # ok: returns-stored-output
    return _EXT


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}
        self.out = None
        self.bank = {}
        self.configs = {}

    def _config(self, n):
        if n not in self.configs:
            self.configs[n] = (1024, 4)
        # ok: returns-stored-output
        return self.configs[n]

    def _banked(self, x):
        # ok: returns-stored-output
        return self.bank[x.shape[0]]

    def forward(self, x):
        key = tuple(x.shape)
        if key in self.cache:
            # ruleid: returns-stored-output
            return self.cache[key]
        if self.out is not None and self.out.shape == x.shape:
            # ruleid: returns-stored-output
            return self.out
        if len(_RESULTS) > 3:
            # ruleid: returns-stored-output
            return _RESULTS[-1]
        block, warps = self._config(x.numel())
        _get_ext()
        if x.shape[0] in self.bank and block > warps:
            # Stored state handed back through a helper is still stored state at the entry.
            # ruleid: returns-stored-output
            return self._banked(x)
        # ok: returns-stored-output
        return _launch(x)
