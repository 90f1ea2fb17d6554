"""F6 (evasive): the library call is spelled in the build flags, not in the source.

`-DTILED_GEMM=at::matmul` in extra_cuda_cflags turns the call `TILED_GEMM(a, b)` into cuBLAS. Read
without the flags, the source calls an undeclared helper.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor gemm_scale_forward(torch::Tensor a, torch::Tensor b, double s);"

cuda_source = r"""
#include <torch/extension.h>

__global__ void scale_kernel(float* y, float s, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] *= s;
}

torch::Tensor gemm_scale_forward(torch::Tensor a, torch::Tensor b, double s) {
    // ruleid: cpp-library-call
    auto y = TILED_GEMM(a, b);
    const int64_t n = y.numel();
    scale_kernel<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), static_cast<float>(s), n);
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_define_flag",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gemm_scale_forward"],
    extra_cuda_cflags=["-O3", "-DTILED_GEMM=at::matmul"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, scale: float = 0.5):
        super().__init__()
        self.scale = scale

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.gemm_scale_forward(a, b, self.scale)
