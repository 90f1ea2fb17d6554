# lint-expect: symbols
# Degenerate task for `kgate tasks lint`: the manifest names N but the reference has no global N
import torch
import torch.nn as nn

SIZE = 64


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(SIZE, SIZE), torch.randn(SIZE, SIZE)]


def get_init_inputs():
    return []
