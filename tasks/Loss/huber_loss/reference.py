# Huber (smooth L1 with delta 1) loss, mean over all elements.
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 128
D = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, pred, target):
        return F.huber_loss(pred, target, reduction="mean", delta=1.0)


def get_inputs():
    return [torch.randn(B, D), torch.randn(B, D)]


def get_init_inputs():
    return []
