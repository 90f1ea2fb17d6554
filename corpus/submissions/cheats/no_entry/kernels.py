"""A directory with a kernel and a wrapper but no entry a harness calls: nothing says what would run,
so the submission is unjudged, never a pass."""
import torch
import triton
import triton.language as tl


@triton.jit
def _square(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, v * v, mask=mask)


def square(x):
    out = torch.empty_like(x)
    _square[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
