"""Types of the SiLU task: an fp32 matrix in, x * sigmoid(x) out."""
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=torch.Tensor)
output_t = TypeVar("output_t", bound=torch.Tensor)
