# Runtime corpus task (bare KernelBench file): LayerScale (CaiT), a per-channel gain initialised tiny,
# so every output element is below the fp32 atol of 1e-4 while the output as a whole is not zero.
# 1.5e-5: an element reaches atol only where |x| > 6.7 (never, for normal draws), and the output's norm
# is still 1.5 times the norm floor. With 2e-5, a normal draw above 5 failed the zeros cheat
# elementwise first and hid norm-mismatch, the reason its test expects (seen in 1 of 5 quick runs).
import torch
import torch.nn as nn

B = 16
D = 256
INIT = 1.5e-5


class Model(nn.Module):
    def __init__(self, dim, init):
        super().__init__()
        self.gamma = nn.Parameter(torch.full((dim,), init))

    def forward(self, x):
        return x * self.gamma


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return [D, INIT]
