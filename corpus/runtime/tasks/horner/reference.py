# Runtime corpus task: a degree-7 polynomial by Horner's rule, in the run's dtype (fp16 or bf16), so the
# reference rounds after every multiply and add; for |x| of a few units the terms cancel and that
# rounding is far larger than the tolerance.
import torch
import torch.nn as nn

N = 65536
DEG = 7


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, coeffs):
        y = torch.zeros_like(x) + coeffs[-1]
        for i in range(coeffs.shape[0] - 2, -1, -1):
            y = y * x + coeffs[i]
        return y


def get_inputs():
    return [torch.randn(N), torch.randn(DEG + 1)]


def get_init_inputs():
    return []
