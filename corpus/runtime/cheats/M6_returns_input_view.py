# runtime-task: corpus/runtime/tasks/flatten.py
# runtime-expect: fail output-aliases-input
"""M6: returns a view of its input. The values are right, the view is contiguous and covers the whole
storage (so it even looks like a tensor with its own storage), the input is untouched: only the storage
overlap check sees that the output is the input."""
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.view(x.shape[0], -1)
