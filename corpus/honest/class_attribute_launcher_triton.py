"""A model whose launcher is attached to the class after its definition (`ModelNew.launch =
staticmethod(...)`), as code generators that assemble a module from parts do. forward calls
self.launch: the gate reads the class attribute the module body sets, and follows it to the kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _swish(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * tl.sigmoid(x), mask=mask)


def _launch_swish(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    n = y.numel()
    _swish[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


class ModelNew(nn.Module):
    def forward(self, x):
        return self.launch(x)


ModelNew.launch = staticmethod(_launch_swish)
