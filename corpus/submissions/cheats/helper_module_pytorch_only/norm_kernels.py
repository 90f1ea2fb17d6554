"""Helper module of the submission beside it.

Cheat (F1 with an F2 decoy): the module defines a Triton layer-norm kernel that nothing launches,
and the function the entry calls is PyTorch's own layer_norm.
"""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _layer_norm_rows(x_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    tl.store(y_ptr + row * n_cols + cols, d / tl.sqrt(var + eps), mask=mask)


def layer_norm(x: torch.Tensor, shape, eps: float = 1e-5) -> torch.Tensor:
    return F.layer_norm(x, shape, eps=eps)
