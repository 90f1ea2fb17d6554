# Fixture for super-forward-call: delegation to the parent class or the reference model.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

from reference_pkg import ReferenceNet

CUDA_SRC = r"""
__global__ void copy_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
torch::Tensor forward(torch::Tensor a, torch::Tensor b) {
  auto y = torch::empty_like(a);
  int n = a.numel();
  copy_kernel<<<(n + 255) / 256, 256>>>(a.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
"""

ext = load_inline(name="fwd_ext", cpp_sources="torch::Tensor forward(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=CUDA_SRC, functions=["forward"])


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


class Block(nn.Module):
    def forward(self, x):
        return x


class ModelNew(Model):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.ref = Model()
        self.other = ReferenceNet()
        self.ext = ext

    def forward(self, a, b):
        # ok: super-forward-call
        y = self.ext.forward(a, b)
        # ok: super-forward-call
        y = self.block.forward(y)
        # ruleid: super-forward-call
        z = super().forward(a, b)
        # ruleid: super-forward-call
        z = super(ModelNew, self).__call__(a, b)
        # ruleid: super-forward-call
        z = Model.forward(self, a, b)
        # ruleid: super-forward-call
        z = self.ref(a, b)
        # ruleid: super-forward-call
        z = self.other.forward(a, b)
        z = self._delegate(a, b)
        return y

    def _delegate(self, a, b):
        # ruleid: super-forward-call
        return super().forward(a, b)

    def _unused(self, a, b):
        # ok: super-forward-call
        return super().forward(a, b)
