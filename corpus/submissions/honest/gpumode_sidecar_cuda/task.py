"""The harness's types for this problem (GPU MODE style): what custom_kernel takes and returns."""
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=tuple[torch.Tensor, float])
output_t = TypeVar("output_t", bound=torch.Tensor)
