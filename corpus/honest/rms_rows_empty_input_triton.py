"""Row-wise RMS normalisation, y = x / sqrt(mean(x^2) + eps), one Triton program per row. Like many
generated submissions it returns early on an empty input, in forward and in its launcher; no harness
input is empty, and what those returns hand back is empty.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _rms_rows_kernel(x_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    inv = 1.0 / tl.sqrt(tl.sum(v * v, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * n_cols + cols, v * inv, mask=mask)


def rms_rows(x: torch.Tensor, eps: float) -> torch.Tensor:
    x = x.contiguous()
    rows, cols = x.shape
    if rows == 0 or cols == 0:
        return torch.empty_like(x)
    y = torch.empty_like(x)
    _rms_rows_kernel[(rows,)](x, y, cols, eps, BLOCK=triton.next_power_of_2(cols))
    return y


class ModelNew(nn.Module):
    def __init__(self, eps: float = 1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.numel() == 0:
            return x.clone()
        return rms_rows(x, self.eps)
