# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: pass
"""Honest, two files: ModelNew imports its arithmetic from scale_ops.py beside it. The worker finds
that module through the submission's own directory (after the standard library and site-packages, so
a sibling cannot shadow them)."""
import torch.nn as nn

from scale_ops import scaled_sum


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return scaled_sum(x, y, 2.0)
