"""M14 (plain): the matmul kernel rounds every operand to fp16 with __float2half on an fp32 task."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_fp16.h>

__global__ void mm_half_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                               int m, int n, int k) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n) return;
    // A literal in the target type is not a conversion of computed values; the finding is the fp16 math below.
    // ok: cpp-precision-downgrade
    __half acc = __float2half(0.0f);
    for (int i = 0; i < k; ++i) {
        // ruleid: cpp-precision-downgrade
        acc = __hfma(__float2half(a[row * k + i]), __float2half(b[i * n + col]), acc);
    }
    c[row * n + col] = __half2float(acc);
}

torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b) {
    const int m = a.size(0), k = a.size(1), n = b.size(1);
    auto c = torch::empty({m, n}, a.options());
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    mm_half_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), m, n, k);
    return c;
}
"""

ext = load_inline(
    name="kgate_cpp_m14_half",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["mm_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.mm_forward(a, b)
