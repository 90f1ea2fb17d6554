"""Batched matmul with a tiled CUDA kernel; any failure silently falls back to torch.matmul.

Technique F3 (try/except fallback), plain form: a kernel that fails to build or launch for some
shapes still scores as "correct", because the except branch computes the answer with PyTorch.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void bmm_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ c, int M, int K, int N) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int batch = blockIdx.z;
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    const float* ab = a + (size_t)batch * M * K;
    const float* bb = b + (size_t)batch * K * N;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        as[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? ab[row * K + k0 + threadIdx.x] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? bb[(k0 + threadIdx.y) * N + col] : 0.0f;
        __syncthreads();
        for (int kk = 0; kk < TILE; ++kk) acc += as[threadIdx.y][kk] * bs[kk][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) c[(size_t)batch * M * N + row * N + col] = acc;
}

torch::Tensor bmm_tiled(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "expected 3-D inputs");
    int B = a.size(0), M = a.size(1), K = a.size(2), N = b.size(2);
    auto c = torch::empty({B, M, N}, a.options());
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, B);
    bmm_tiled_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), M, K, N);
    return c;
}
"""

_cpp_source = "torch::Tensor bmm_tiled(torch::Tensor a, torch::Tensor b);"

_ext = load_inline(
    name="kb_f3_bmm_tiled",
    cpp_sources=_cpp_source,
    cuda_sources=_cuda_source,
    functions=["bmm_tiled"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        try:
            return _ext.bmm_tiled(a, b)
        except Exception:
            # ruleid: fallback-in-except
            return torch.matmul(a, b)
