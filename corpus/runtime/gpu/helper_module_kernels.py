"""Helper module of helper_module_entry_triton.py: the Triton kernel and its launcher, in a file of their
own beside the entry (no runtime-expect line: not a candidate by itself)."""
import torch
import triton
import triton.language as tl


@triton.jit
def twice_plus_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def twice_plus(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    twice_plus_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
