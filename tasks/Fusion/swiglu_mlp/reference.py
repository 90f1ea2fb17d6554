# SwiGLU feed-forward: y = (silu(x W1^T) * (x W3^T)) W2^T, no biases.
import torch
import torch.nn as nn
import torch.nn.functional as F

M = 128
D = 256
HID = 512


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


def get_inputs():
    return [torch.randn(M, D)]


def get_init_inputs():
    return [D, HID]
