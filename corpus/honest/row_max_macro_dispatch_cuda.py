"""KernelBench-style row max. The CUDA host function picks a block size at run time and launches a
templated kernel through a dispatch macro, the way many hand-tuned extensions select template
instances; the row offsets go to the kernel in a small int64 table built from host values with
torch::tensor. The gate must see the launch inside the macro and read the table as set-up."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CUDA = r"""
#include <torch/extension.h>
#include <vector>

template <int BLOCK>
__global__ void row_max_kernel(const float* __restrict__ x, float* __restrict__ out,
                               const int64_t* __restrict__ starts, int cols) {
  __shared__ float best[BLOCK];
  const int row = blockIdx.x;
  const float* p = x + starts[row];
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, p[c]);
  best[threadIdx.x] = m;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[row] = best[0];
}

#define DISPATCH_ROW_MAX(B)                                                         \
  row_max_kernel<B><<<rows, B>>>(x.data_ptr<float>(), out.data_ptr<float>(), \
                                 starts.data_ptr<int64_t>(), cols)

torch::Tensor row_max(torch::Tensor x) {
  x = x.contiguous();
  const int rows = x.size(0);
  const int cols = x.size(1);
  std::vector<int64_t> host_starts(rows);
  for (int r = 0; r < rows; ++r) host_starts[r] = static_cast<int64_t>(r) * cols;
  auto starts = torch::tensor(host_starts, torch::dtype(torch::kInt64)).to(x.device());
  auto out = torch::empty({rows}, x.options());
  if (cols >= 4096) {
    DISPATCH_ROW_MAX(1024);
  } else {
    DISPATCH_ROW_MAX(256);
  }
  return out;
}
"""

_ext = load_inline(name="row_max_macro_ext", cpp_sources="torch::Tensor row_max(torch::Tensor x);",
                   cuda_sources=_CUDA, functions=["row_max"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.row_max(x)
