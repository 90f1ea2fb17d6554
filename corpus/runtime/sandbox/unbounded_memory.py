# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: crashed crashed
# runtime-expect-message: MemoryError
# Reserves memory without bound (untouched pages, so no real memory is used): RLIMIT_AS stops it.

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        hoard = []
        while True:
            hoard.append(bytearray(1 << 30))
        return torch.clamp(x, min=0.0)
