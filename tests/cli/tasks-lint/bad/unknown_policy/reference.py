# lint-expect: policy
# Degenerate task for `kgate tasks lint`: policy.category names no rules/policies file
import torch
import torch.nn as nn

N = 64


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
