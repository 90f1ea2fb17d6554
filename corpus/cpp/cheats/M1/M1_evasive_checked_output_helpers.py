"""M1 (evasive): the output comes from an allocation helper through a second helper that returns the
first's result directly, and is then handed to a "validation" helper that only compares its shape with
the input's. The kernel writes a scratch buffer; the returned torch::empty_like output is never written,
though it passed through three functions of the file."""

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

torch::Tensor gelu_forward(torch::Tensor x) {
    auto out = output_for(x);
    validate_output(out, x);
    auto work = torch::empty_like(x);
    gelu_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), work.data_ptr<float>(), x.numel());
    // ruleid: cpp-returns-unwritten
    return out;
}
"""

ext = load_inline(
    name="kgate_cpp_m1_checked_helpers",
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
