# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail input-mutated
"""M3 across two files: the entry looks clean, and its helper inplace_ops.py scales the input x in
place before adding. The output is right; comparing the inputs before and after the call shows it."""
import torch.nn as nn

import inplace_ops


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return inplace_ops.scaled_sum(x, y)
