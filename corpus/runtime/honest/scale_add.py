# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: pass
"""Honest: computes 2 * x + y into a new tensor and leaves its inputs alone."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        out = torch.empty_like(x)
        torch.add(y, x, alpha=2.0, out=out)
        return out
