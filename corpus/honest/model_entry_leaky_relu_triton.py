"""Harness that keeps the reference's class name (kernelbench.com style): the candidate defines
class Model with the reference's constructor arguments, and forward launches its own Triton kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _leaky_relu(x_ptr, y_ptr, n_elements, slope, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, tl.where(x > 0, x, x * slope), mask=mask)


class Model(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n_elements = x.numel()
        _leaky_relu[(triton.cdiv(n_elements, 2048),)](x, y, n_elements, self.negative_slope, BLOCK=2048)
        return y
