# lint-expect: below-tolerance
# Degenerate task for `kgate tasks lint`: the output is far below the fp32 tolerance, so zeros pass (M4)
import torch
import torch.nn as nn

N = 64


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b) * 1e-9


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
