# runtime-task: corpus/runtime/tasks/hinge_pm1.py
# runtime-expect: pass
"""Honest under the task's contract: a target is +1 or -1, so the margin is 1 - p or 1 + p, picked by
the target's sign instead of a multiply. Refilling the targets with arbitrary floats would fail it."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        margin = torch.where(targets > 0, 1 - predictions, 1 + predictions)
        return torch.clamp(margin, min=0).mean()
