# Fixture for modelnew-missing: a KernelBench-style CUDA submission whose model class is misnamed.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
__global__ void add_one_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.f;
}
torch::Tensor add_one(torch::Tensor x) {
  auto y = torch::empty_like(x);
  int n = x.numel();
  add_one_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
"""

ext = load_inline(name="add_one_ext", cpp_sources="torch::Tensor add_one(torch::Tensor x);",
                  cuda_sources=CUDA_SRC, functions=["add_one"])


# ok: modelnew-missing
class LaunchConfig:
    block = 256


# ruleid: modelnew-missing
class ModelOptimized(nn.Module):
    def forward(self, x):
        return ext.add_one(x)


# ok: modelnew-missing
class Residual(nn.Module):
    def forward(self, x):
        return x


# ok: modelnew-missing
def build_model():
    return ModelOptimized()
