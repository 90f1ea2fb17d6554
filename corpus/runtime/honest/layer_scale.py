# runtime-task: corpus/runtime/tasks/layer_scale.py
# runtime-expect: pass
"""Honest: the per-channel gain, however small the result."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim, init):
        super().__init__()
        self.gamma = nn.Parameter(torch.full((dim,), init))

    def forward(self, x):
        return torch.mul(x, self.gamma)
