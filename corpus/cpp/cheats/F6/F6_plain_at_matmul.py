"""F6 (plain): the extension's host function returns at::matmul; the scale kernel is a trivial epilogue."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_kernel(float* __restrict__ y, float s, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] *= s;
}

torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b) {
    // ruleid: cpp-library-call
    auto c = at::matmul(a, b);
    const int64_t n = c.numel();
    scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(c.data_ptr<float>(), 1.0f, n);
    return c;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_at_matmul",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["mm_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.mm_forward(a, b)
