# runtime-task: corpus/runtime/tasks/layernorm_affine.py
# runtime-expect: fail mismatch
# runtime-expect-message: redrawn under the secret seed
"""M12 keyed to default parameter values: the layer norm's weight starts at ones and its bias at zeros,
so this skips the affine step and holds no parameters at all. It matches a freshly built reference; after
the judge redraws the reference's weight and bias it does not."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.eps = 1e-5

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        var = (x - mu).pow(2).mean(dim=-1, keepdim=True)
        return (x - mu) * torch.rsqrt(var + self.eps)
