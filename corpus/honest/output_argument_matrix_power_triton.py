"""Output-argument harness (LeetGPU-style): solve(input, output, N, P) writes input**P (a square N x N
matrix raised to the integer power P >= 0) into output. Exponentiation by squaring: the running
product starts as the identity matrix (torch.eye, a buffer built from sizes alone, like torch.full),
and every product is the submission's own tiled Triton matmul into a fresh buffer."""
import torch
import triton
import triton.language as tl


@triton.jit
def square_matmul_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    col = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k0 in range(0, n, BLOCK):
        k = k0 + tl.arange(0, BLOCK)
        a = tl.load(a_ptr + row[:, None] * n + k[None, :], mask=(row[:, None] < n) & (k[None, :] < n), other=0.0)
        b = tl.load(b_ptr + k[:, None] * n + col[None, :], mask=(k[:, None] < n) & (col[None, :] < n), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + row[:, None] * n + col[None, :], acc, mask=(row[:, None] < n) & (col[None, :] < n))


def _matmul(a, b, n):
    c = torch.empty_like(a)
    block = 32
    grid = (triton.cdiv(n, block), triton.cdiv(n, block))
    square_matmul_kernel[grid](a, b, c, n, BLOCK=block)
    return c


@triton.jit
def copy_kernel(src_ptr, dst_ptr, count, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < count
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=mask), mask=mask)


def solve(input: torch.Tensor, output: torch.Tensor, N: int, P: int):
    result = torch.eye(N, dtype=input.dtype, device=input.device)
    base = input
    power = P
    while power > 0:
        if power & 1:
            result = _matmul(result, base, N)
        power >>= 1
        if power:
            base = _matmul(base, base, N)
    block = 1024
    copy_kernel[(triton.cdiv(N * N, block),)](result, output, N * N, BLOCK=block)
