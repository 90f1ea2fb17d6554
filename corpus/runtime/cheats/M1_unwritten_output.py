# runtime-task: corpus/runtime/tasks/negative_part.py
# runtime-expect: fail poison-read
"""M1: returns torch.empty_like without writing it. The task's output is all zeros, which is what fresh
memory holds too, so without poisoning the comparison passes. Only the poisoned free memory shows that the
output is memory the submission never wrote."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.empty_like(x)
