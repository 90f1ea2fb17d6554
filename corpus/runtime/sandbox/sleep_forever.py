# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: timeout timeout
# runtime-expect-message: 
# Never returns: the wall-clock limit kills the worker's process group.
import time
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        time.sleep(10**6)
        return torch.clamp(x, min=0.0)
