# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: crashed crashed
# runtime-expect-message: PermissionError
# Drops a torch.py next to the submission to shadow torch for later imports: Landlock refuses writes outside the private directory.
import os
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch.py"), "w") as f:
            f.write("raise SystemExit")
        return torch.clamp(x, min=0.0)
