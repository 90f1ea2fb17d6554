"""A harness that keeps the class name `Model`, with torch.cuda.jiterator: an element-wise smooth-L1
term written as the submission's own CUDA template, compiled at run time by NVRTC and launched by
PyTorch's TensorIterator over the two inputs."""
import torch
import torch.nn as nn

_SMOOTH_L1 = """
template <typename T> T smooth_l1(T a, T b, T beta) {
  T d = a > b ? a - b : b - a;
  return d < beta ? T(0.5) * d * d / beta : d - T(0.5) * beta;
}
"""

smooth_l1 = torch.cuda.jiterator._create_jit_fn(_SMOOTH_L1, beta=1.0)


class Model(nn.Module):
    def __init__(self, beta: float = 1.0):
        super().__init__()
        self.beta = beta

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1(predictions, targets, beta=self.beta)
