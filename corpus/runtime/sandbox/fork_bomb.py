# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: sandbox-violation sandbox-violation
# runtime-expect-message: clone
# A fork bomb: the first fork already traps.
import os
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        while True:
            os.fork()
        return torch.clamp(x, min=0.0)
