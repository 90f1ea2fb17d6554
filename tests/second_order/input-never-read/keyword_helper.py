"""input-never-read, one step on: the input reaches a helper by keyword, and the helper reads only its
shape; the kernel squares the weight."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def square_kernel(w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    w = tl.load(w_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, w * w, mask=mask)


def output_like(device, template):
    return torch.empty(template.shape, device=device, dtype=template.dtype)


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features))

    def forward(self, x):
        out = output_like(self.weight.device, template=x)
        n = out.numel()
        square_kernel[(triton.cdiv(n, 1024),)](self.weight, out, n, BLOCK=1024)
        return out
