# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: crashed crashed
# runtime-expect-message: exited with code 0
# os._exit(0) in the middle of a call: a clean exit code is still a crash.
import os
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        os._exit(0)
        return torch.clamp(x, min=0.0)
