# A bare KernelBench-style square matmul, small enough for quick GPU runs: no manifest, so the judge's
# default runtime policy applies (no cuBLAS/cuDNN/CUTLASS kernels, at least 90% own kernel time).
import torch
import torch.nn as nn

N = 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


def get_inputs():
    return [torch.rand(N, N), torch.rand(N, N)]


def get_init_inputs():
    return []
