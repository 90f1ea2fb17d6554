"""F2 (evasive): one launch has a zero-block grid built through a dim3 variable, the other sits after a return hidden in a macro; the result comes from cuBLAS via at::mm."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#define FINISH(t) return t

__global__ void mm_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int i = 0; i < n; ++i) acc += a[row * n + i] * b[i * n + col];
        c[row * n + col] = acc;
    }
}

torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b) {
    const int n = a.size(0);
    const int tiles = 0 * ((n + 15) / 16);
    dim3 block(16, 16), grid(tiles, tiles);
    // ruleid: cpp-library-call
    auto c = at::mm(a, b);
    // ruleid: decoy-kernel-dead-branch
    mm_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
    FINISH(c);
    // ruleid: decoy-kernel-dead-branch
    mm_kernel<<<dim3((n + 15) / 16, (n + 15) / 16), block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
}
"""

ext = load_inline(
    name="kgate_cpp_f2_grid",
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
        # ruleid: extension-function-missing
        return ext.mm_forward(a, b)
