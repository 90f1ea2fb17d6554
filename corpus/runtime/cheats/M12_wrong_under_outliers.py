# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail mismatch
"""M12: a "saturating fast path" that clamps x to [-8, 8], which never matters for standard normal inputs
(|x| > 8 has probability 1e-15). Only the outlier distribution (elements times 50) exposes it."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return 2.0 * torch.clamp(x, -8.0, 8.0) + y
