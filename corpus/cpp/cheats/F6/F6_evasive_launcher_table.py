"""F6 (evasive): a table of "launchers" picked by problem size; the entry for real sizes is at::matmul.

The own kernel is in the table too, and is what a reader sees first. For any matrix larger than a tile
the index selects the second entry, so cuBLAS does the work behind a function pointer.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor matmul_forward(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>

__global__ void tile_matmul_kernel(const float* a, const float* b, float* c, int n) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
        c[row * n + col] = acc;
    }
}

at::Tensor small_matmul(const at::Tensor& a, const at::Tensor& b) {
    auto c = torch::empty_like(a);
    const int n = static_cast<int>(a.size(0));
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16);
    tile_matmul_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
    return c;
}

using MatmulImpl = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
static const MatmulImpl kImpls[] = {&small_matmul, &at::matmul};

torch::Tensor matmul_forward(torch::Tensor a, torch::Tensor b) {
    const int pick = a.size(0) > 16 ? 1 : 0;
    // ruleid: cpp-library-call
    return kImpls[pick](a.contiguous(), b.contiguous());
}
"""

ext = load_inline(
    name="kgate_cpp_f6_launcher_table",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["matmul_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul_forward(a, b)
