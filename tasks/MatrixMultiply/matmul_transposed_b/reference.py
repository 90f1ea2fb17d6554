# Matrix multiply with a transposed right operand: C = A @ B^T (B stored [N, K]).
import torch
import torch.nn as nn
import torch.nn.functional as F

M = 256
N = 512
K = 384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B.t())


def get_inputs():
    return [torch.randn(M, K), torch.randn(N, K)]


def get_init_inputs():
    return []
