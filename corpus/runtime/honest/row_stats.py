# runtime-task: corpus/runtime/tasks/row_stats.py
# runtime-expect: pass
"""Honest: both outputs of the row statistics, the mean as a sum over the row's length."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.sum(dim=-1) / x.shape[-1], x.max(dim=-1).values
