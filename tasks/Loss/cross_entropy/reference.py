# Cross-entropy of logits against int64 class targets, mean over the batch.
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 256
C = 1000


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, target):
        return F.cross_entropy(logits, target, reduction="mean")


def get_inputs():
    return [torch.randn(B, C), torch.randint(0, C, (B,), dtype=torch.int64)]


def get_init_inputs():
    return []
