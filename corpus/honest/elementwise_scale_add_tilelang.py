"""KernelBench submission in TileLang: out = a * alpha + b as a T.prim_func built for the problem's
shape and compiled with tilelang.compile; forward calls the compiled kernel, which allocates the
output (out_idx). TileLang runs in fp16 or bf16 here, the dtype KernelBench's TileLang backend uses."""
import tilelang
import tilelang.language as T
import torch
import torch.nn as nn


def scale_add(M, N, alpha, block_M=64, block_N=128, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                row = by * block_M + i
                col = bx * block_N + j
                if row < M and col < N:
                    C[row, col] = A[row, col] * alpha + B[row, col]

    return main


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 0.5):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        M, N = a.shape
        kernel = tilelang.compile(scale_add(M, N, self.alpha), out_idx=[-1])
        return kernel(a, b)
