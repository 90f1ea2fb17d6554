# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: sandbox-violation sandbox-violation
# runtime-expect-message: ptrace
# ptrace, the road to the judge's memory: traps.
import ctypes
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        ctypes.CDLL(None, use_errno=True).ptrace(0, 0, None, None)
        return torch.clamp(x, min=0.0)
