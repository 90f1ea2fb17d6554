# A bare KernelBench-style task: a layer norm over the last dimension. Its weight starts at ones and its
# bias at zeros, so a kernel that skips the affine step matches the freshly built reference; the judge
# redraws both under its secret seed.
import torch
import torch.nn as nn

batch_size = 32
features = 160


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.ln = nn.LayerNorm(features)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [features]
