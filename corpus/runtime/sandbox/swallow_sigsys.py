# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: sandbox-violation sandbox-violation
# runtime-expect-message: rt_sigaction
# Replaces the SIGSYS handler so later violations go unreported: re-registering SIGSYS is itself a violation.
import signal
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        signal.signal(signal.SIGSYS, signal.SIG_IGN)
        return torch.clamp(x, min=0.0)
