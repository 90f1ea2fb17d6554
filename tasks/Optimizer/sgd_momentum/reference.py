# SGD with momentum and weight decay, functional: returns stack([param, momentum_buffer]).
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 262144


class Model(nn.Module):
    def __init__(self, lr=1e-2, momentum=0.9, weight_decay=1e-4):
        super().__init__()
        self.lr = lr
        self.momentum = momentum
        self.weight_decay = weight_decay

    def forward(self, param, grad, buf):
        g = grad + self.weight_decay * param
        b = self.momentum * buf + g
        return torch.stack([param - self.lr * b, b])


def get_inputs():
    return [torch.randn(N), torch.randn(N), torch.randn(N) * 0.1]


def get_init_inputs():
    return []
