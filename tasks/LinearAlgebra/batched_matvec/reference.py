# Batched matrix-vector product: y[b] = A[b] @ x[b].
import torch
import torch.nn as nn

B = 16
M = 256
N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return torch.matmul(A, x.unsqueeze(-1)).squeeze(-1)


def get_inputs():
    return [torch.randn(B, M, N), torch.randn(B, N)]


def get_init_inputs():
    return []
