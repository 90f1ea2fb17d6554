"""Reference of a bf16 task in a kernelbench.com-style workspace (reference.py beside solution.py):
row-wise RMS norm of bf16 activations with a bf16 weight. Its dtypes are the task's contract."""
import torch
import torch.nn as nn

BATCH, HIDDEN = 64, 4096


class Model(nn.Module):
    def __init__(self, hidden: int = HIDDEN, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden, dtype=torch.bfloat16))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return (y * self.weight.float()).to(torch.bfloat16)


def get_inputs():
    return [torch.randn(BATCH, HIDDEN, dtype=torch.bfloat16)]


def get_init_inputs():
    return [HIDDEN]
