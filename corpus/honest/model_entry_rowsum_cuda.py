"""Harness that keeps the class name Model: a row-sum reduction in CUDA (load_inline), one block per
row with a shared-memory tree reduction."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>

__global__ void row_sum_kernel(const float* __restrict__ x, float* __restrict__ out, int cols) {
  extern __shared__ float partial[];
  const float* row = x + static_cast<size_t>(blockIdx.x) * cols;
  float acc = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += row[c];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

torch::Tensor row_sum(torch::Tensor x) {
  const int rows = static_cast<int>(x.size(0));
  const int cols = static_cast<int>(x.size(1));
  auto out = torch::empty({rows, 1}, x.options());
  const int threads = 256;
  row_sum_kernel<<<rows, threads, threads * sizeof(float)>>>(x.data_ptr<float>(), out.data_ptr<float>(), cols);
  return out;
}
"""

row_sum_ext = load_inline(
    name="model_entry_row_sum",
    cpp_sources="torch::Tensor row_sum(torch::Tensor x);",
    cuda_sources=source,
    functions=["row_sum"],
)


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return row_sum_ext.row_sum(x.contiguous())
