# runtime-task: corpus/runtime/tasks/row_sum
# runtime-expect: fail mismatch
"""M12: specialised to the public shape: it sums the first 1024 columns in blocks of 256 and ignores the
rest, which is exact for the public N = 1024 and wrong at the hidden N = 4099 (N = 1000 still passes)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.zeros(x.shape[0], dtype=x.dtype, device=x.device)
        for start in range(0, 1024, 256):
            out += x[:, start:start + 256].sum(dim=1)
        return out
