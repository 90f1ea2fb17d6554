"""The other custom_kernel of the directory, with the same kernel: which one the harness runs is not
the gate's guess to make, so the directory is unjudged until the entry is named."""
import torch
import triton
import triton.language as tl


@triton.jit
def _double_v2(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


def custom_kernel(data):
    x = data
    out = torch.empty_like(x)
    _double_v2[(triton.cdiv(x.numel(), 512),)](x, out, x.numel(), BLOCK=512)
    return out
