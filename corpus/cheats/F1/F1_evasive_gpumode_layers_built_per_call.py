"""GPU MODE submission that builds its model from torch.nn layers on each call, fills their weights
from the data and lets them compute: the Triton kernel only adds the residual (F1). Building the layers
is set-up; calling them is PyTorch doing the task's work."""
import torch
import triton
import triton.language as tl
from torch import nn

from task import input_t, output_t


@triton.jit
def residual_kernel(y_ptr, x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(y_ptr + offs, mask=mask) + tl.load(x_ptr + offs, mask=mask), mask=mask)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        # ruleid: torch-function-in-forward
        y = self.proj(x)
        out = torch.empty_like(x)
        n = x.numel()
        residual_kernel[(triton.cdiv(n, 1024),)](y, x, out, n, BLOCK=1024)
        return out


def custom_kernel(data: input_t) -> output_t:
    x, weights = data
    block = Block(x.shape[-1]).to(x.device)
    block.proj.weight = nn.Parameter(weights["proj.weight"])
    block.proj.bias = nn.Parameter(weights["proj.bias"])
    return block(x.contiguous())
