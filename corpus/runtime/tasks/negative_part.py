# Runtime corpus task (bare KernelBench file): relu(-|x|), which is zero for every input. A trap for outputs
# that are never written: fresh pages read as zeros too, so only poisoned free memory tells them apart.
import torch
import torch.nn as nn

B = 512
D = 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(-torch.abs(x))


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
