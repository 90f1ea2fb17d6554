# runtime-task: corpus/runtime/tasks/row_stats.py
# runtime-expect: fail mismatch
# runtime-expect-message: output[1]
"""M1: computes the first of the two outputs and returns zeros for the second, hoping a harness that
compares only the first tensor of a tuple never looks."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        mean = x.mean(dim=-1)
        return mean, torch.zeros_like(mean)
