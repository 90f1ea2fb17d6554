"""GELU with a jiterator function whose body only copies its input; the activation itself is
torch.nn.functional.gelu on the result.

Technique F1 (baseline wrapper), plain form, with torch.cuda.jiterator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

_COPY = """
template <typename T> T passthrough(T x) {
  return x;
}
"""

passthrough = torch.cuda.jiterator._create_jit_fn(_COPY)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = passthrough(x)
        # ruleid: torch-function-in-forward
        return F.gelu(y)
