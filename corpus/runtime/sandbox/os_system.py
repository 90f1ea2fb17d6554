# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: sandbox-violation sandbox-violation
# runtime-expect-message: SIGSYS
# runtime-expect-message-cuda: execve (os.system)
# Runs a shell command: system(3) clones with every signal blocked, so the trap kills the worker with SIGSYS.
import os
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        os.system("echo owned > /tmp/kgate-owned")
        return torch.clamp(x, min=0.0)
