# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: pass
# runtime-expect-message: 
# Honest: the sandbox must not get in the way of a plain candidate.

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        pass
        return torch.clamp(x, min=0.0)
