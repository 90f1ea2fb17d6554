# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: sandbox-violation sandbox-violation
# runtime-expect-message: execve
# Replaces the worker with another program: execve traps.
import os
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        os.execv("/bin/sh", ["sh", "-c", "exit 0"])
        return torch.clamp(x, min=0.0)
