"""GPU MODE submission in the style of its model problems (trimul, mla-decode): custom_kernel builds a
small module of its own, moves it to the input's device and fills its parameters from the weights that
come with the data, then runs it. The module's forward launches a Triton kernel."""
import torch
import triton
import triton.language as tl
from torch import nn

from task import input_t, output_t


@triton.jit
def scaled_rows_kernel(x_ptr, gain_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=0.0)
    gain = tl.load(gain_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + row * cols + offs, x * gain, mask=mask)


class ScaledRows(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gain = nn.Linear(dim, 1, bias=False)

    def forward(self, x):
        out = torch.empty_like(x)
        cols = x.shape[1]
        scaled_rows_kernel[(x.shape[0],)](x, self.gain.weight, out, cols, BLOCK=triton.next_power_of_2(cols))
        return out


def custom_kernel(data: input_t) -> output_t:
    x, weights = data
    net = ScaledRows(x.shape[-1]).to(x.device)
    net.gain.weight = nn.Parameter(weights["gain.weight"].to(torch.float32))
    return net(x.contiguous())
