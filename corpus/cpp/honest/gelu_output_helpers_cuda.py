"""Honest twin of M1_evasive_checked_output_helpers: the same allocation helpers and shape check, then a
launch helper that takes the output by reference and hands its data pointer to the kernel. The buffer
returned is the one the kernel wrote."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor gelu_forward(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
}

static torch::Tensor alloc_output(const torch::Tensor& x) { return torch::empty_like(x); }

static torch::Tensor output_for(const torch::Tensor& x) { return alloc_output(x); }

static void validate_output(const torch::Tensor& y, const torch::Tensor& x) {
    TORCH_CHECK(y.sizes() == x.sizes(), "output shape must match the input");
    TORCH_CHECK(y.is_contiguous(), "output must be contiguous");
}

static void launch_gelu(const torch::Tensor& x, torch::Tensor& y) {
    const int64_t n = x.numel();
    gelu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
}

torch::Tensor gelu_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat, "x must be a CUDA float tensor");
    auto xc = x.contiguous();
    auto out = output_for(xc);
    validate_output(out, xc);
    launch_gelu(xc, out);
    return out;
}
"""

ext = load_inline(
    name="kgate_cpp_gelu_output_helpers",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gelu_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.gelu_forward(x)
