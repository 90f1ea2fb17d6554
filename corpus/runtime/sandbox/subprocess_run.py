# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: sandbox-violation sandbox-violation
# runtime-expect-message: 
# Starts a child process through subprocess (vfork or clone, whichever this Python uses).
import subprocess
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        subprocess.run(["/bin/true"], check=False)
        return torch.clamp(x, min=0.0)
