# One AdamW step (decoupled weight decay, bias-corrected), functional: returns stack([param, exp_avg, exp_avg_sq]).
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 262144


class Model(nn.Module):
    def __init__(self, lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=1e-2, step=5):
        super().__init__()
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.weight_decay = weight_decay
        self.step = step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        p = param * (1.0 - self.lr * self.weight_decay)
        m = self.beta1 * exp_avg + (1.0 - self.beta1) * grad
        v = self.beta2 * exp_avg_sq + (1.0 - self.beta2) * grad * grad
        m_hat = m / (1.0 - self.beta1 ** self.step)
        v_hat = v / (1.0 - self.beta2 ** self.step)
        p = p - self.lr * m_hat / (torch.sqrt(v_hat) + self.eps)
        return torch.stack([p, m, v])


def get_inputs():
    return [torch.randn(N), torch.randn(N), torch.randn(N) * 0.1, torch.rand(N) * 0.01]


def get_init_inputs():
    return []
