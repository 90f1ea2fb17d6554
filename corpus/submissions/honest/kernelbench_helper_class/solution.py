"""Softmax over dim 1, computed by the RowSoftmax module of the helper file beside this one."""

import torch
import torch.nn as nn
from row_softmax import RowSoftmax


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.softmax = RowSoftmax()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.softmax(x)
