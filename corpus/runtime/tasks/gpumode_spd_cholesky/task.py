"""Types of the SPD Cholesky task: a batch of symmetric positive-definite matrices in, their lower
Cholesky factors out."""
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=torch.Tensor)
output_t = TypeVar("output_t", bound=torch.Tensor)
