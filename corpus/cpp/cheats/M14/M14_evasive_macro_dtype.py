"""M14 (evasive): the input is converted to half through a macro-named dtype before an fp16 kernel runs."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor relu_forward(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_fp16.h>
#define STORAGE_TYPE at::kHalf

__global__ void relu_half_kernel(const __half* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(__half2float(x[i]), 0.0f);
}

torch::Tensor relu_forward(torch::Tensor x) {
    // ruleid: cpp-precision-downgrade
    auto xh = x.to(STORAGE_TYPE);
    auto y = torch::empty_like(x);
    relu_half_kernel<<<(x.numel() + 255) / 256, 256>>>(
        reinterpret_cast<const __half*>(xh.data_ptr()), y.data_ptr<float>(), x.numel());
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_m14_macro",
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
