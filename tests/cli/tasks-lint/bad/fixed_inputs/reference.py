# lint-expect: constant-output
# Degenerate task for `kgate tasks lint`: get_inputs returns the same values under every seed (M5)
import torch
import torch.nn as nn

N = 64


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.ones(N, N), torch.eye(N)]


def get_init_inputs():
    return []
