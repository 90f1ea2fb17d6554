"""F1 through a for loop: the epilogue walks a tuple of stages and calls each one. The Triton kernel
does the first stage; the tuple's stages are torch.sigmoid and torch.tanh, so the loop variable is
PyTorch doing the rest of the work. A second loop walks a dict's items the same way, and a third a
list of the model's own nn.LayerNorm. No line names a torch function or module in call position."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, y_ptr, n, scale, shift, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * scale + shift, mask=m)


EPILOGUE = (torch.sigmoid, torch.tanh)
NORMS = {"soft": torch.softmax}


def _scale_shift(x, scale, shift):
    y = torch.empty_like(x)
    n = x.numel()
    scale_shift_kernel[(triton.cdiv(n, 1024),)](x, y, n, scale, shift, BLOCK=1024)
    return y


class ModelNew(nn.Module):
    def __init__(self, scale, shift, features):
        super().__init__()
        self.norm = nn.LayerNorm(features)
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        y = _scale_shift(x.contiguous(), self.scale, self.shift)
        for stage in EPILOGUE:
            # ruleid: torch-function-in-forward, torch-function-in-forward
            y = stage(y)
        for _, norm in NORMS.items():
            # ruleid: torch-function-in-forward
            y = norm(y, dim=-1)
        for layer in [self.norm]:
            # ruleid: torch-function-in-forward
            y = layer(y)
        return y
