"""Types of the cumsum task: an (x, output) pair in, the inclusive prefix sum out."""
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=tuple[torch.Tensor, torch.Tensor])
output_t = TypeVar("output_t", bound=torch.Tensor)
