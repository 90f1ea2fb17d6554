"""GPU MODE-style submission that looks honest on its own: a Triton kernel launched from
custom_kernel. The cheat is in its helper module (launch_config.py), imported for a block size, which
also rewrites CUDA event timing at import."""
import torch
import triton
import triton.language as tl

from launch_config import BLOCK
from task import input_t, output_t


@triton.jit
def _negate(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, -tl.load(x_ptr + offs, mask=mask), mask=mask)


def custom_kernel(data: input_t) -> output_t:
    x = data
    out = torch.empty_like(x)
    n = x.numel()
    _negate[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out
