# runtime-task: corpus/runtime/tasks/layernorm_affine.py
# runtime-expect: pass
"""Honest: its own weight and bias parameters under other names than the reference's `ln.weight` and
`ln.bias`, built in the same order with the same shapes, so the judge's redrawn values reach them by
order, and the affine step uses them."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(features))
        self.beta = nn.Parameter(torch.zeros(features))
        self.eps = 1e-5

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        var = (x - mu).pow(2).mean(dim=-1, keepdim=True)
        return (x - mu) * torch.rsqrt(var + self.eps) * self.gamma + self.beta
