"""Helper module of entry.py: the elementwise work, into a tensor of its own."""
import torch


def scaled_sum(x, y, alpha):
    out = torch.empty_like(x)
    torch.add(y, x, alpha=alpha, out=out)
    return out
