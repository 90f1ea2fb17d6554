# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: sandbox-violation sandbox-violation
# runtime-expect-message: process_vm_writev
# Writes another process's memory (the parent, the judge): traps.
import ctypes
import os
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.process_vm_writev(os.getppid(), None, 0, None, 0, 0)
        return torch.clamp(x, min=0.0)
