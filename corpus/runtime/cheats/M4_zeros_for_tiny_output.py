# runtime-task: corpus/runtime/tasks/layer_scale.py
# runtime-expect: fail norm-mismatch
"""M4: LayerScale's outputs are all below fp32's atol of 1e-4 (gain 1.5e-5), so returning zeros passes an
elementwise allclose. Only the norm term of the tolerance contract, relative to the output's own norm,
sees that nothing was computed."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim, init):
        super().__init__()
        self.gamma = nn.Parameter(torch.full((dim,), init))

    def forward(self, x):
        return torch.zeros_like(x)
