# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: crashed crashed
# runtime-expect-message: Cannot allocate memory
# Reserves memory without bound (anonymous mappings never touched, so no real memory is used):
# RLIMIT_AS stops it with ENOMEM. (bytearray(n) zero-fills its pages: on a small machine that is real memory.)

import mmap

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        hoard = []
        while True:
            hoard.append(mmap.mmap(-1, 1 << 30))
        return torch.clamp(x, min=0.0)
