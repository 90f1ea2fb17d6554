"""A submission whose CUDA lives in a sibling file (swish_kernel.cu), compiled with
torch.utils.cpp_extension.load from a path built on __file__. The gate reads the sibling next to the
submission and judges its C++ like an embedded string."""
from pathlib import Path

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load

_HERE = Path(__file__).resolve().parent

swish_ext = load(name="swish_sibling", sources=[str(_HERE / "swish_kernel.cu")], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return swish_ext.swish(x.contiguous())
