"""F6, evasive: the "CUDA implementation" registered with TORCH_LIBRARY_IMPL and called from forward
as torch.ops.kgate_ops.gelu computes with at::gelu; the kernel beside it is never launched. The op
is reached through the dispatcher, not through a pybind11 module, so it has no ext.fn call to follow."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <torch/library.h>

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678f));
}

torch::Tensor gelu_cuda(const torch::Tensor& x) {
    // ruleid: cpp-library-call
    auto y = at::gelu(x);
    return y;
}

TORCH_LIBRARY(kgate_ops, m) { m.def("gelu(Tensor x) -> Tensor"); }

TORCH_LIBRARY_IMPL(kgate_ops, CUDA, m) { m.impl("gelu", &gelu_cuda); }
"""

load_inline(name="kgate_gelu_ops", cpp_sources="", cuda_sources=cuda_source, is_python_module=False, verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # ruleid: extension-function-missing
        return torch.ops.kgate_ops.gelu(x)
