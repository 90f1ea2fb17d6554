# One Adam step (bias-corrected), written functionally: returns the new parameter and moments
# stacked as [3, N] (param, exp_avg, exp_avg_sq) and leaves every input untouched.
import torch
import torch.nn as nn

N = 262144


class Model(nn.Module):
    def __init__(self, lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8, step=10):
        super().__init__()
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.step = step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        m = self.beta1 * exp_avg + (1.0 - self.beta1) * grad
        v = self.beta2 * exp_avg_sq + (1.0 - self.beta2) * grad * grad
        m_hat = m / (1.0 - self.beta1 ** self.step)
        v_hat = v / (1.0 - self.beta2 ** self.step)
        p = param - self.lr * m_hat / (torch.sqrt(v_hat) + self.eps)
        return torch.stack([p, m, v])


def get_inputs():
    return [torch.randn(N), torch.randn(N), torch.randn(N) * 0.1, torch.rand(N) * 0.01]


def get_init_inputs():
    return []
