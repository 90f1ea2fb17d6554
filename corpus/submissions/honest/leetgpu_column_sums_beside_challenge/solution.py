"""Honest (LeetGPU, output named by challenge.py beside it): column sums by row blocks. solve clears
its output `sums` (a name no profile knows; challenge.py says it is solve's "out") and every program
adds its block's partial sums into it atomically."""
import torch
import triton
import triton.language as tl


@triton.jit
def column_sums_kernel(x_ptr, sums_ptr, m, n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    block = tl.load(x_ptr + rows[:, None] * n + cols[None, :], mask=mask, other=0.0)
    tl.atomic_add(sums_ptr + cols, tl.sum(block, axis=0), mask=cols < n)


def solve(X: torch.Tensor, sums: torch.Tensor, M: int, N: int):
    sums.zero_()
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    column_sums_kernel[grid](X, sums, M, N, BLOCK_M=64, BLOCK_N=64)
