# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail mismatch
"""M12 on a task without a manifest: the kernel works in whole 256-wide column tiles (the public D is
256) and never handles a tail, which is exact at the public shape only. The judge derives hidden shapes
from the reference's integer globals (halved, then odd), where this fails."""
import torch
import torch.nn as nn

TILE = 256


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        out = y.clone()
        full = (x.shape[1] // TILE) * TILE
        out[:, :full] += 2.0 * x[:, :full]
        return out
