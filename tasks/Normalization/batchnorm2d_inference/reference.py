# BatchNorm2d in inference mode with non-trivial running statistics and affine parameters.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 8
C = 64
H = 28
W = 28


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, eps=1e-5)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.normal_(0.0, 0.5)
        self.bn.eval()

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]
