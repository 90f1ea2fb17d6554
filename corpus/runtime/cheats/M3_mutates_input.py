# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail input-mutated
"""M3: computes the right answer in place, into its input x. The output is correct, a plain tensor of its
own (x is scaled in place, the sum goes to a new tensor), deterministic and fresh, so only the comparison of
the inputs before and after the call sees that x came back doubled."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x.mul_(2.0)
        return x + y
