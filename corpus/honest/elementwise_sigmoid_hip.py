"""KernelBench submission for ROCm: HIP C++ compiled with load_inline (PyTorch's ROCm build hipifies
and builds it), launched with hipLaunchKernelGGL."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

hip_source = r"""
#include <hip/hip_runtime.h>
#include <torch/extension.h>

__global__ void sigmoid_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1.f / (1.f + expf(-x[i]));
}

torch::Tensor sigmoid_hip(torch::Tensor x) {
  auto y = torch::empty_like(x);
  const int n = static_cast<int>(x.numel());
  const int threads = 256;
  hipLaunchKernelGGL(sigmoid_kernel, dim3((n + threads - 1) / threads), dim3(threads), 0, 0,
                     x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
"""

sigmoid_ext = load_inline(
    name="sigmoid_hip",
    cpp_sources="torch::Tensor sigmoid_hip(torch::Tensor x);",
    cuda_sources=hip_source,
    functions=["sigmoid_hip"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid_ext.sigmoid_hip(x.contiguous())
