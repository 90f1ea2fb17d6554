"""Square fp32 matmul with 32x32 shared-memory tiles; each thread accumulates one output in registers."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor matmul_tiled(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

constexpr int TILE = 32;

__global__ void matmul_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int m, int n, int k) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE + 1];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[threadIdx.y][threadIdx.x] = (row < m && t + threadIdx.x < k) ? a[row * k + t + threadIdx.x] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < k) ? b[(t + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < TILE; ++i) acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = acc;
}

torch::Tensor matmul_tiled(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "matmul_tiled: CUDA tensors expected");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0), "matmul_tiled: shape mismatch");
    auto a_c = a.contiguous();
    auto b_c = b.contiguous();
    const int m = a_c.size(0), k = a_c.size(1), n = b_c.size(1);
    auto c = torch::empty({m, n}, a_c.options());
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        a_c.data_ptr<float>(), b_c.data_ptr<float>(), c.data_ptr<float>(), m, n, k);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return c;
}
"""

ext = load_inline(
    name="kgate_cpp_honest_matmul_tiled",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["matmul_tiled"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul_tiled(a, b)
