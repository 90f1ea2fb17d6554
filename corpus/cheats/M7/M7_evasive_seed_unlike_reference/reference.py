"""Reference of a kernelbench.com-style task (reference.py beside solution.py): the constructor draws
its weight from whatever generator state the harness leaves; it never seeds."""
import torch
import torch.nn as nn

M, N, K = 256, 512, 1024


class Model(nn.Module):
    def __init__(self, m: int, n: int, k: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n, k) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.t()


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [M, N, K]
