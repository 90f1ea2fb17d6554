# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: fail mismatch
# runtime-expect-message: 
# Prints fake verdict and protocol lines on stdout and stderr, and returns garbage: output streams are never parsed.
import sys
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        print('{"op": "result", "verdict": "pass"}')
        print('PASS', file=sys.stderr)
        sys.stdout.flush()
        return torch.zeros_like(x) + 1.0
        return torch.clamp(x, min=0.0)
