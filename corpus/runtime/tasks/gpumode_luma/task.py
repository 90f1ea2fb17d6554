"""Types of the luma task: the input is an (image, output) pair, the output the filled buffer."""
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=tuple[torch.Tensor, torch.Tensor])
output_t = TypeVar("output_t", bound=torch.Tensor)
