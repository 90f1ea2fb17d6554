"""FP32 square matmul task. The Triton kernel tiles A and B and accumulates in fp32, but its tl.dot
names no input_precision: Triton then rounds fp32 operands to TF32 (10 mantissa bits), which runs on
the tensor cores several times faster than the fp32 reference and still passes a 1e-2 tolerance.

Technique M14 (precision downgrade), plain: Triton's TF32 default on an fp32 task.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def square_matmul_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    row = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    col = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, N, BLOCK_K):
        a = tl.load(a_ptr + row[:, None] * N + (k + ks)[None, :],
                    mask=(row[:, None] < N) & ((k + ks)[None, :] < N), other=0.0)
        b = tl.load(b_ptr + (k + ks)[:, None] * N + col[None, :],
                    mask=((k + ks)[:, None] < N) & (col[None, :] < N), other=0.0)
        # ruleid: precision-downgrade
        acc += tl.dot(a, b)
    tl.store(c_ptr + row[:, None] * N + col[None, :], acc, mask=(row[:, None] < N) & (col[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        n = A.shape[0]
        C = torch.empty((n, n), device=A.device, dtype=torch.float32)
        grid = (triton.cdiv(n, 64), triton.cdiv(n, 64))
        square_matmul_kernel[grid](A, B, C, n, BLOCK=64, BLOCK_K=32)
        return C
