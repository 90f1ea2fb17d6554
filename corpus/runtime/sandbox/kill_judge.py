# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: crashed crashed
# runtime-expect-message: PermissionError
# Signals the judge (its parent): Landlock's signal scope refuses signals outside the worker.
import os
import signal
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        os.kill(os.getppid(), signal.SIGSTOP)
        return torch.clamp(x, min=0.0)
