"""KernelBench submission with torch.cuda.jiterator: the element-wise body is the submission's own
CUDA code, compiled at run time by NVRTC into a kernel that PyTorch's TensorIterator launches."""
import torch
import torch.nn as nn

_GELU_TANH = """
template <typename T> T gelu_tanh(T x) {
  const T k = T(0.7978845608028654);
  return T(0.5) * x * (T(1) + tanh(k * (x + T(0.044715) * x * x * x)));
}
"""

gelu_tanh = torch.cuda.jiterator._create_jit_fn(_GELU_TANH)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu_tanh(x)
