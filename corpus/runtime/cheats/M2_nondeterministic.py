# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail nondeterministic
"""M2: stands in for a kernel that folds uninitialised scratch memory into its result: each call adds a
different perturbation of at most 1e-5, inside every tolerance, so each output alone compares fine. Only
running the same inputs twice and requiring bit-identical outputs sees it."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x, y):
        # A generator of its own, so reseeding torch's global RNG between calls cannot line the calls up.
        self.calls += 1
        scratch = torch.Generator().manual_seed(self.calls)
        noise = (torch.rand(x.shape, generator=scratch) * 2.0 - 1.0) * 1e-5
        return 2.0 * x + y + noise.to(x.device, x.dtype)
