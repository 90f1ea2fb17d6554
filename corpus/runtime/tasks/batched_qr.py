# Runtime corpus task (bare KernelBench file): the Q factor of a batch of QR factorizations. Like every
# torch.linalg factorization, the reference returns its output in column-major (Fortran) order: each
# matrix transposed in memory, a dense tensor that is not contiguous.
import torch
import torch.nn as nn

B = 16
N = 24


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a):
        return torch.linalg.qr(a).Q


def get_inputs():
    return [torch.randn(B, N, N)]


def get_init_inputs():
    return []
