# One RMSprop step, functional: returns stack([param, square_avg]).
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 262144


class Model(nn.Module):
    def __init__(self, lr=1e-2, alpha=0.99, eps=1e-8):
        super().__init__()
        self.lr = lr
        self.alpha = alpha
        self.eps = eps

    def forward(self, param, grad, square_avg):
        s = self.alpha * square_avg + (1.0 - self.alpha) * grad * grad
        p = param - self.lr * grad / (torch.sqrt(s) + self.eps)
        return torch.stack([p, s])


def get_inputs():
    return [torch.randn(N), torch.randn(N), torch.rand(N) * 0.01]


def get_init_inputs():
    return []
