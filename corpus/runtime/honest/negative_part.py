# runtime-task: corpus/runtime/tasks/negative_part.py
# runtime-expect: pass
"""Honest: writes every output element (clamp of -|x| at zero), so no poison can show through."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.clamp(torch.neg(torch.abs(x)), min=0.0)
