"""Reference of a kernelbench.com-style task (reference.py beside solution.py): a linear layer whose
weight the constructor draws under a seed made from the shape, so that every run builds the same
weights. The candidate's constructor must build them alike before the harness loads this state."""
import torch
import torch.nn as nn

M, N, K = 256, 512, 1024


class Model(nn.Module):
    def __init__(self, m: int, n: int, k: int):
        super().__init__()
        torch.manual_seed(0x5EED ^ (n * 31 + k))
        self.weight = nn.Parameter(torch.randn(n, k) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.t()


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [M, N, K]
