# 1-D max pooling, window 4, stride 4.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 16
C = 64
L = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size=4, stride=4)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(N, C, L)]


def get_init_inputs():
    return []
