# runtime-task: corpus/runtime/tasks/flatten.py
# runtime-expect: pass
"""Honest: copies the flattened input into storage of its own."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty((x.shape[0], x[0].numel()), dtype=x.dtype, device=x.device)
        out.copy_(x.reshape(x.shape[0], -1))
        return out
