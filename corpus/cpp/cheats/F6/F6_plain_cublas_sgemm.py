"""F6 (plain): cuBLAS does the GEMM; the custom kernel only adds the bias (F5 lazy optimisation)."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor linear_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

__global__ void add_bias_kernel(float* __restrict__ y, const float* __restrict__ b, int rows, int cols) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) y[i] += b[i % cols];
}

torch::Tensor linear_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    const int m = x.size(0), k = x.size(1), n = w.size(0);
    auto y = torch::empty({m, n}, x.options());
    cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
    const float alpha = 1.0f, beta = 0.0f;
    // ruleid: cpp-library-call
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, w.data_ptr<float>(), k,
                x.data_ptr<float>(), k, &beta, y.data_ptr<float>(), n);
    add_bias_kernel<<<(m * n + 255) / 256, 256>>>(y.data_ptr<float>(), b.data_ptr<float>(), m, n);
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_cublas",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["linear_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.linear_forward(x, self.weight, self.bias)
