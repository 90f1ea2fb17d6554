# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: pass
# Honest CUDA load_inline candidate: compiled by the judge's compile cache outside the sandbox.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor relu_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous() && x.scalar_type() == torch::kFloat, "float cuda contiguous input");
  auto y = torch::empty_like(x);
  const long n = x.numel();
  relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
"""

relu_ext = load_inline(name="kgate_gpu_relu", cpp_sources="torch::Tensor relu_forward(torch::Tensor x);",
                       cuda_sources=cuda_source, functions=["relu_forward"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return relu_ext.relu_forward(x.contiguous())
