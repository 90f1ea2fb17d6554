# runtime-task: corpus/runtime/tasks/linear_layernorm_mean.py
# runtime-expect: fail ignores-input
"""M15 (degenerate reference): the task's output is the mean of a layer norm's bias whatever x is, and
that bias starts at zero, so returning zeros matches every comparison. The judge poisons x with NaN:
the reference's output changes, this one's never does."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, hidden):
        super().__init__()

    def forward(self, x):
        return torch.zeros(x.shape[0], dtype=x.dtype, device=x.device)
