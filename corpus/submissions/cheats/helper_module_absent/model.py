"""The forward pass hands its work to `row_kernels.fused_softmax`, and the submission's directory has
no row_kernels.py: whatever it would run, the gate cannot see it, so the submission is unjudged."""
import torch
import torch.nn as nn
from row_kernels import fused_softmax


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return fused_softmax(x.contiguous(), dim=-1)
