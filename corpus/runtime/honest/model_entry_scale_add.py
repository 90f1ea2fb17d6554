# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: pass
"""Honest (model-entry harness): the submission keeps the reference's class name, Model, as
kernelbench.com's harness asks, and the runtime enters through it when there is no ModelNew."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return torch.add(y, x, alpha=2.0)
