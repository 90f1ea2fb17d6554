# runtime-task: corpus/runtime/sandbox/task_relu.py
# runtime-expect: crashed crashed
# runtime-expect-message: illegal memory access
# A kernel that writes far outside its output: the CUDA context of the worker is lost. The verdict is
# crashed (with CUDA's reason), only the worker dies, and the judge goes on.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void wild_write(float* __restrict__ y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i + (1L << 40)] = 1.0f;
}

torch::Tensor relu_wild(torch::Tensor x) {
  auto y = torch::relu(x);
  const long n = y.numel();
  wild_write<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), n);
  return y;
}
"""

ext = load_inline(name="kgate_gpu_wild_write", cpp_sources="torch::Tensor relu_wild(torch::Tensor x);",
                  cuda_sources=cuda_source, functions=["relu_wild"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.relu_wild(x.contiguous())
