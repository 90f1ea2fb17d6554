# Batched matrix multiply: C[b] = A[b] @ B[b].
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 8
M = 128
N = 128
K = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.bmm(A, B)


def get_inputs():
    return [torch.randn(B, M, K), torch.randn(B, K, N)]


def get_init_inputs():
    return []
