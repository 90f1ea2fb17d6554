"""F6 + T2 (evasive): the cuBLAS entry point is assembled with ## so `cublasSgemm` never appears in the text."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
#define BLAS(kind, op) cublas##kind##op##_v2

// The store writes back what it read: compiled away, as the PTX shows.
// ruleid: ptx-kernel-stores-nothing
__global__ void noop_fill(float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] * 1.0f;
}

torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b) {
    const int m = a.size(0), k = a.size(1), n = b.size(1);
    auto c = torch::empty({m, n}, a.options());
    const float one = 1.0f, zero = 0.0f;
    // ruleid: cpp-library-call, cpp-token-pasted-api
    BLAS(S, gemm)(at::cuda::getCurrentCUDABlasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                  b.data_ptr<float>(), n, a.data_ptr<float>(), k, &zero, c.data_ptr<float>(), n);
    noop_fill<<<(c.numel() + 255) / 256, 256>>>(c.data_ptr<float>(), c.numel());
    return c;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_paste",
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
