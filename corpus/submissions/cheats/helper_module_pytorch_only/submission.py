"""LayerNorm without affine parameters, through norm_kernels.layer_norm (see that file's docstring)."""

import torch
import torch.nn as nn
import norm_kernels


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.normalized_shape = tuple(normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return norm_kernels.layer_norm(x, self.normalized_shape)
