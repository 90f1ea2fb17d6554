"""F10 through __getattribute__: nn.Module.__call__ looks up self.forward, and the model's own
__getattribute__ answers that lookup with PyTorch's ReLU. The kernel-launching forward the gate would
follow is never the one that runs."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class ModelNew(nn.Module):
    # ruleid: entry-class-replaced
    def __getattribute__(self, name):
        if name == "forward":
            return torch.relu
        return super().__getattribute__(name)

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
