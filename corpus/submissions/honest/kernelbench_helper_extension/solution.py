"""Hardtanh through a CUDA extension that a helper module builds at import."""

import torch
import torch.nn as nn
from clamp_ext import clamp


class ModelNew(nn.Module):
    def __init__(self, min_val: float = -1.0, max_val: float = 1.0):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return clamp.clamp_cuda(x, self.min_val, self.max_val)
