"""F6/T2 through a sibling file that is not there: the submission compiles "kernels.cu" next to itself,
but the file it ships with is missing, so nobody can see what the extension runs (a library GEMM
would hide here as well as a kernel). A missing sibling is extension-sources-unresolved."""
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load

# ruleid: extension-sources-unresolved
_ext = load(name="hidden_gemm", sources=[os.path.join(os.path.dirname(__file__), "kernels.cu")])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.gemm(a, b)
