# runtime-task: corpus/runtime/tasks/linear_layernorm_mean.py
# runtime-expect: fail ignores-input
"""M15 (degenerate reference): the task's output is its offset parameter whatever x is. This keeps the
reference's parameters (so the judge's redrawn values reach it by name) and returns that closed form
without reading x. The judge poisons x with NaN: the reference's output changes, this one's never does."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, hidden):
        super().__init__()
        self.linear = nn.Linear(in_features, hidden)
        self.norm = nn.LayerNorm(hidden, elementwise_affine=False)
        self.offset = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return self.offset.expand(x.shape[0]).contiguous()
