"""F6, evasive: a scale-and-shift layer (x * w + b) whose kernel only copies the bias; the host function
does the real work with ATen through C++ operators on full tensors (`x * w`, `out += b`), which
name no library function for a name-based check to find. Each operator is an ATen call."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor scaled_bias(torch::Tensor x, torch::Tensor w, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>

__global__ void copy_bias_kernel(const float* __restrict__ b, float* __restrict__ out, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = b[i];
}

torch::Tensor scaled_bias(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    auto bias = torch::empty_like(b);
    const int64_t n = b.numel();
    copy_bias_kernel<<<(n + 255) / 256, 256>>>(b.data_ptr<float>(), bias.data_ptr<float>(), n);
    // ruleid: cpp-library-call
    auto out = x * w;
    // ruleid: cpp-library-call
    out += bias;
    return out;
}
"""

ext = load_inline(
    name="scaled_bias",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["scaled_bias"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features))
        self.bias = nn.Parameter(torch.randn(features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.scaled_bias(x, self.weight, self.bias)
