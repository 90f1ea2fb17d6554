"""Types of the masked-activation task: a dict with the matrix, an optional row mask and the activation's
name in; the activated matrix, masked rows zero, out."""
from typing import TypedDict, TypeVar

import torch


class Data(TypedDict):
    x: torch.Tensor
    keep: torch.Tensor | None
    mode: str


input_t = TypeVar("input_t", bound=Data)
output_t = TypeVar("output_t", bound=torch.Tensor)
