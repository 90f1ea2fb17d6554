# runtime-task: corpus/runtime/tasks/linear_layernorm_mean.py
# runtime-expect: pass
"""Honest on a degenerate reference: it computes the linear layer, the norm and the mean, so a NaN in x
reaches its output as it reaches the reference's."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_features, hidden):
        super().__init__()
        self.linear = nn.Linear(in_features, hidden)
        self.norm = nn.LayerNorm(hidden, elementwise_affine=False)
        self.offset = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        h = F.linear(x, self.linear.weight, self.linear.bias)
        mu = h.mean(dim=-1, keepdim=True)
        var = (h - mu).pow(2).mean(dim=-1, keepdim=True)
        y = (h - mu) / torch.sqrt(var + self.norm.eps)
        return y.mean(dim=-1) + self.offset
