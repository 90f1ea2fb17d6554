"""A CUDA leaky ReLU registered as a PyTorch operator instead of a pybind11 module: the C++ declares
the schema in TORCH_LIBRARY and binds the CUDA implementation in TORCH_LIBRARY_IMPL, load_inline
builds it with is_python_module=False, and forward calls it as torch.ops.kgate_ops.leaky_relu."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <torch/library.h>

__global__ void leaky_relu_kernel(const float* __restrict__ x, float* __restrict__ y, float slope, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : slope * x[i];
}

torch::Tensor leaky_relu_cuda(const torch::Tensor& x, double slope) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "leaky_relu: fp32 CUDA tensor expected");
    auto input = x.contiguous();
    auto y = torch::empty_like(input);
    const int64_t n = input.numel();
    leaky_relu_kernel<<<(n + 255) / 256, 256>>>(input.data_ptr<float>(), y.data_ptr<float>(),
                                                static_cast<float>(slope), n);
    return y;
}

TORCH_LIBRARY(kgate_ops, m) { m.def("leaky_relu(Tensor x, float slope) -> Tensor"); }

TORCH_LIBRARY_IMPL(kgate_ops, CUDA, m) { m.impl("leaky_relu", &leaky_relu_cuda); }
"""

load_inline(
    name="kgate_leaky_relu_ops",
    cpp_sources="",
    cuda_sources=cuda_source,
    is_python_module=False,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.kgate_ops.leaky_relu(x, self.negative_slope)
