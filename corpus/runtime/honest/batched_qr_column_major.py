# runtime-task: corpus/runtime/tasks/batched_qr.py
# runtime-expect: pass
"""Honest: the same Householder QR as the reference, returned in the layout the reference itself returns
(column-major per matrix). A dense output with the reference's own layout is a plain output."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, a):
        q, _ = torch.linalg.qr(a)
        return q
