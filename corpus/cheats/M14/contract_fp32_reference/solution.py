"""fp32 task (the reference beside this file uses fp32 inputs): the solution runs its GEMM on bf16
copies of the operands and converts the result back, below the fp32 contract.

Technique M14 (precision downgrade), with the contract read from the workspace's reference.py.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gemm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :], mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class Model(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        # ruleid: precision-downgrade
        a16 = a.to(torch.bfloat16)
        # ruleid: precision-downgrade
        b16 = b.to(torch.bfloat16)
        c = torch.empty((a.shape[0], b.shape[1]), device=a.device, dtype=torch.float32)
        grid = (triton.cdiv(a.shape[0], 64), triton.cdiv(b.shape[1], 64))
        _gemm[grid](a16, b16, c, a.shape[0], b.shape[1], a.shape[1], BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
        return c
