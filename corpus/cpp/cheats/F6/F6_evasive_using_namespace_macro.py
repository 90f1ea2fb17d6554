"""F6 (evasive): `using namespace at;` plus a macro hide matmul behind an unqualified name."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
using namespace at;
#define COMBINE(lhs, rhs) matmul(lhs, rhs)

__global__ void bias_kernel(float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] += 0.0f;
}

Tensor mm_forward(Tensor a, Tensor b) {
    // ruleid: cpp-library-call
    Tensor c = COMBINE(a, b);
    bias_kernel<<<(c.numel() + 255) / 256, 256>>>(c.data_ptr<float>(), c.numel());
    return c;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_using_macro",
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
