"""F6 (evasive): a helper declared under a harmless name is bound to at::matmul's symbol.

The asm label makes the linker resolve `tiled_product` to `at::matmul(const Tensor&, const Tensor&)`.
The source defines no body for it, so the "tiled product" is cuBLAS.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor matmul_relu_forward(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>

at::Tensor tiled_product(const at::Tensor& a, const at::Tensor& b) __asm__("_ZN2at6matmulERKNS_6TensorES2_");

__global__ void relu_kernel(float* y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(y[i], 0.0f);
}

torch::Tensor matmul_relu_forward(torch::Tensor a, torch::Tensor b) {
    // ruleid: cpp-library-call
    auto y = tiled_product(a, b);
    const int64_t n = y.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_asm_label",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["matmul_relu_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul_relu_forward(a, b)
