# runtime-task: corpus/runtime/tasks/row_sum
# runtime-expect: pass
"""Honest: sums each row at whatever shape it is given, public or hidden."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.zeros(x.shape[0], dtype=x.dtype, device=x.device)
        for start in range(0, x.shape[1], 256):
            out += x[:, start:start + 256].sum(dim=1)
        return out
