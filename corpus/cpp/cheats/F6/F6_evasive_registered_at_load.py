"""F6 (evasive): the GEMM is a function pointer filled in while the extension loads.

A second global's initializer stores at::matmul in the pointer when the module is loaded; the entry
calls through the pointer. The entry path never names the library, and the pointer's own initializer
is empty.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor gemm_gelu_forward(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>

__global__ void gelu_kernel(float* y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = y[i];
        y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
    }
}

using Gemm = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
static Gemm g_gemm = nullptr;

static const bool g_installed = (g_gemm = &at::matmul, true);

torch::Tensor gemm_gelu_forward(torch::Tensor a, torch::Tensor b) {
    // ruleid: cpp-call-unresolved
    auto y = g_gemm(a, b);
    const int64_t n = y.numel();
    gelu_kernel<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_registered",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gemm_gelu_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.gemm_gelu_forward(a, b)
