# Fixture for forward-replaced: the instance's forward rebound, so the class's forward is dead.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Identity()
        # ruleid: forward-replaced
        self.forward = lambda x: torch.relu(x)
        # ruleid: forward-replaced
        setattr(self, "__call__", lambda x: x * 2)
        # A submodule's forward is not the model's.
        # ok: forward-replaced
        self.proj.forward = lambda x: x
        # ok: forward-replaced
        self.forward_impl = self._launch

    def _launch(self, x):
        y = torch.empty_like(x)
        _copy[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        return y

    def forward(self, x):
        return self.forward_impl(x)
