# Runtime corpus task (bare KernelBench file): y = 2 * x + y, elementwise over two 2-D fp32 tensors.
import torch
import torch.nn as nn

B = 64
D = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return 2.0 * x + y


def get_inputs():
    return [torch.randn(B, D), torch.randn(B, D)]


def get_init_inputs():
    return []
