"""F1 through __getattr__ that forwards the name: forward launches its own add kernel, then returns
self._matmul(out, b). ModelNew never sets `_matmul`; its __getattr__ strips the underscore and hands
any missing name on to the torch module, so torch.matmul does the work. What it returns depends on
the name at run time, so the call is unresolved."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(o_ptr + i, tl.load(x_ptr + i, mask=m) + tl.load(y_ptr + i, mask=m), mask=m)


class ModelNew(nn.Module):
    def __getattr__(self, name):
        return getattr(torch, name.lstrip("_"))

    def forward(self, a, b):
        out = torch.empty_like(a)
        n = a.numel()
        _add[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK=1024)
        # ruleid: dynamic-lookup-unresolved
        return self._matmul(out, b)
