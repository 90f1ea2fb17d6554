"""Types of the symmetric eigendecomposition task: a batch of symmetric matrices in; their eigenvectors
(as columns) and ascending eigenvalues out, as a tuple (Q, L)."""
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=torch.Tensor)
output_t = TypeVar("output_t", bound=tuple[torch.Tensor, torch.Tensor])
