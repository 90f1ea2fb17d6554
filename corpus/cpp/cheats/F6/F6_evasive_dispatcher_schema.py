"""F6 (evasive): the GEMM is looked up in PyTorch's operator registry by its schema name.

c10::Dispatcher finds "aten::bmm" at run time and calls it: cuBLAS does the batched product, and no
ATen function name appears in the code. The kernel beside it only adds the bias.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor bmm_bias_forward(torch::Tensor a, torch::Tensor b, torch::Tensor bias);"

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/core/dispatch/Dispatcher.h>

__global__ void add_bias_kernel(float* y, const float* bias, int64_t n, int64_t cols) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] += bias[i % cols];
}

torch::Tensor bmm_bias_forward(torch::Tensor a, torch::Tensor b, torch::Tensor bias) {
    // ruleid: cpp-library-call
    static auto product = c10::Dispatcher::singleton().findSchemaOrThrow("aten::bmm", "")
                              .typed<at::Tensor(const at::Tensor&, const at::Tensor&)>();
    auto y = product.call(a, b);
    const int64_t n = y.numel();
    add_bias_kernel<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), bias.data_ptr<float>(), n, y.size(2));
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_dispatcher",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["bmm_bias_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, n: int = 64):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(n))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.bmm_bias_forward(a, b, self.bias)
