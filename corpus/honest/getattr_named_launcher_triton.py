"""A model whose __getattr__ maps a few short names onto its own launchers (a pattern of wrapper
modules that keep old attribute names working). forward calls self.add, which the class never sets:
__getattr__ hands back the launcher for that name, and anything else goes to nn.Module's lookup. The
gate follows __getattr__ for the name that is read, so the call reaches the Triton kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add_kernel(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def _launch_add(a, b):
    a, b = a.contiguous(), b.contiguous()
    out = torch.empty_like(a)
    n = out.numel()
    _add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK=1024)
    return out



class ModelNew(nn.Module):
    def __getattr__(self, name):
        if name in ("add", "plus"):
            return _launch_add
        return super().__getattr__(name)

    def forward(self, a, b):
        return self.add(a, b)
