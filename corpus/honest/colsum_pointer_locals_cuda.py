"""Column sums by atomics: the C++ wrapper keeps the input's and the output's storage in pointer
locals, clears the output through its local with cudaMemsetAsync, and the kernel accumulates into
it. The memset's pointer leads back to the output that the wrapper allocated, never to the input."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void colsum_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t rows, int64_t cols) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < rows * cols) atomicAdd(&out[i % cols], x[i]);
}

torch::Tensor colsum(torch::Tensor input) {
    TORCH_CHECK(input.dim() == 2, "input must be 2-D");
    const int64_t rows = input.size(0), cols = input.size(1);
    auto out = torch::empty({cols}, input.options());
    const float* src = input.data_ptr<float>();
    float* acc = out.data_ptr<float>();
    cudaMemsetAsync(acc, 0, cols * sizeof(float));
    const int64_t n = rows * cols;
    colsum_kernel<<<(n + 255) / 256, 256>>>(src, acc, rows, cols);
    return out;
}
"""

_ext = load_inline(
    name="colsum_pointer_locals",
    cpp_sources="torch::Tensor colsum(torch::Tensor input);",
    cuda_sources=_cuda_source,
    functions=["colsum"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return _ext.colsum(x.contiguous())
