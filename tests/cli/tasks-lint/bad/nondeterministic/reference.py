# lint-expect: nondeterministic
# Degenerate task for `kgate tasks lint`: each call adds a call counter
import torch
import torch.nn as nn

N = 64
CALLS = [0]


class Model(nn.Module):
    def forward(self, a, b):
        CALLS[0] += 1
        return torch.matmul(a, b) + CALLS[0]


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
