# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail stale-output
"""T11-T13: computes the first call honestly, then keeps returning a copy of that first output for every
later call of the same shape (a result bank keyed on shape). Every output is a fresh plain tensor and the
inputs are untouched; only checking every call with fresh inputs sees stale answers."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.bank = {}

    def forward(self, x, y):
        key = tuple(x.shape)
        if key not in self.bank:
            self.bank[key] = 2.0 * x + y
        return self.bank[key].clone()
