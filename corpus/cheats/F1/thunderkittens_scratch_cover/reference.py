"""Reference of the bf16 task beside the cheat (reference.py beside solution.py): out = x * scale + bias,
bf16 matrices whose sides are multiples of 64. Its dtypes are the task's contract."""
import torch
import torch.nn as nn

ROWS, COLS = 4096, 4096


class Model(nn.Module):
    def __init__(self, scale: float = 0.5):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return x * self.scale + bias


def get_inputs():
    return [torch.randn(ROWS, COLS, dtype=torch.bfloat16), torch.randn(ROWS, COLS, dtype=torch.bfloat16)]


def get_init_inputs():
    return [0.5]
