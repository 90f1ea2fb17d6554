# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail input-mutated
"""M3 (model-entry harness): class Model computes the right answer through its input y, in place."""
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return y.add_(x, alpha=2.0).clone()
