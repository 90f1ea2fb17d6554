# Fixture for mode-switch-in-forward: training/eval switches on the entry's path.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.bn = nn.BatchNorm2d(c)
        # Set-up in __init__ is not the entry's path.
        # ok: mode-switch-in-forward
        self.bn.training = True

    def forward(self, x):
        # ruleid: mode-switch-in-forward
        self.bn.training = False
        # ruleid: mode-switch-in-forward
        self.eval()
        # ruleid: mode-switch-in-forward
        self.bn.train(False)
        # Reading the mode is fine.
        # ok: mode-switch-in-forward
        if self.training:
            return x
        return self.bn(x)
