"""M1 (plain): the kernel writes a scratch buffer; the returned torch::empty_like output is never written."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor relu_forward(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto scratch = torch::empty_like(x);
    auto out = torch::empty_like(x);
    relu_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), scratch.data_ptr<float>(), x.numel());
    // ruleid: cpp-returns-unwritten
    return out;
}
"""

ext = load_inline(
    name="kgate_cpp_m1_empty",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu_forward(x)
