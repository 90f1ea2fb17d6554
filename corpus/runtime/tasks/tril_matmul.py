# A bare KernelBench-style task whose inputs carry a contract: both matrices are lower triangular
# (get_inputs() builds them with torch.tril), so the product is too. Small enough for CPU runs.
import torch
import torch.nn as nn

M = 96


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.tril(torch.matmul(A, B))


def get_inputs():
    A = torch.tril(torch.rand(M, M))
    B = torch.tril(torch.rand(M, M))
    return [A, B]


def get_init_inputs():
    return []
