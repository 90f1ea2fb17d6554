# runtime-task: corpus/runtime/tasks/scale_add.py
# runtime-expect: fail output-not-plain
"""T4: returns a torch.Tensor subclass whose __eq__ and allclose always agree. Here the values happen to be
right, so a comparison would pass anyway; the point is that the checker must never touch an object whose
methods the submission controls, and only the plain-output check refuses it."""
import torch
import torch.nn as nn


class AgreeableTensor(torch.Tensor):
    def __eq__(self, other):
        return True

    def allclose(self, *args, **kwargs):
        return True


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return (2.0 * x + y).as_subclass(AgreeableTensor)
