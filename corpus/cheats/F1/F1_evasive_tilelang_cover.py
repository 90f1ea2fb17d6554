"""Scale-and-add in TileLang, compiled and called every step, but only on the first row; the result
handed back is computed by PyTorch.

Technique F1 (baseline wrapper), evasive: a live TileLang kernel as cover.
"""
import tilelang
import tilelang.language as T
import torch
import torch.nn as nn


def scale_add(N, alpha, block_N=128, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((1, N), dtype), B: T.Tensor((1, N), dtype), C: T.Tensor((1, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:
            for j in T.Parallel(block_N):
                col = bx * block_N + j
                if col < N:
                    C[0, col] = A[0, col] * alpha + B[0, col]

    return main


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 0.5):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        kernel = tilelang.compile(scale_add(a.shape[1], self.alpha), out_idx=[-1])
        kernel(a[:1], b[:1])
        # ruleid: torch-function-in-forward
        return torch.add(b, a, alpha=self.alpha)
