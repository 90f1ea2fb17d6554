"""Honest (LeetGPU, challenge.py beside it): each program sums |a - b| over its block and adds the sum
into the one-element output atomically; the host then divides that one element by N. Arithmetic on a
one-element output is glue (the kernel did the reduction), as it is on torch.zeros(1)."""
import torch
import triton
import triton.language as tl


@triton.jit
def abs_error_sum_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    diff = tl.load(a_ptr + offs, mask=mask, other=0.0) - tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(tl.abs(diff), axis=0))


def solve(a: torch.Tensor, b: torch.Tensor, mae: torch.Tensor, N: int):
    mae.zero_()
    abs_error_sum_kernel[(triton.cdiv(N, 4096),)](a, b, mae, N, BLOCK=4096)
    mae /= N
