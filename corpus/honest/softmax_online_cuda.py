"""Softmax over the last dimension with a one-pass online (max, sum) reduction, then one normalising pass."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_cpp = f"torch::Tensor online_softmax_forward(torch::Tensor x);"

softmax_cuda = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <math_constants.h>

constexpr int kSoftmaxThreads = 512;

struct MaxSum {
    float m;  // running maximum
    float s;  // sum of exp(x - m) over the elements seen so far
};

__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b) {
    const float m = fmaxf(a.m, b.m);
    if (m == -CUDART_INF_F) {
        return {m, 0.f};
    }
    return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ __forceinline__ MaxSum warp_merge(MaxSum v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        MaxSum other;
        other.m = __shfl_xor_sync(0xffffffffu, v.m, offset);
        other.s = __shfl_xor_sync(0xffffffffu, v.s, offset);
        v = merge(v, other);
    }
    return v;
}

__global__ void online_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t cols) {
    __shared__ MaxSum partial[kSoftmaxThreads / 32];
    __shared__ MaxSum row_stats;

    const int64_t row = blockIdx.x;
    const float* xr = x + row * cols;
    float* yr = y + row * cols;

    // Pass 1: each thread folds its strided elements into (m, s) without a separate max pass.
    MaxSum acc = {-CUDART_INF_F, 0.f};
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = xr[c];
        if (v > acc.m) {
            acc.s = acc.s * expf(acc.m - v) + 1.f;
            acc.m = v;
        } else if (v != -CUDART_INF_F) {
            acc.s += expf(v - acc.m);
        }
    }

    acc = warp_merge(acc);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) {
        partial[warp] = acc;
    }
    __syncthreads();
    if (warp == 0) {
        MaxSum v = lane < (kSoftmaxThreads / 32) ? partial[lane] : MaxSum{-CUDART_INF_F, 0.f};
        v = warp_merge(v);
        if (lane == 0) {
            row_stats = v;
        }
    }
    __syncthreads();

    // Pass 2: normalise.
    const float m = row_stats.m;
    const float inv_s = 1.f / row_stats.s;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        yr[c] = expf(xr[c] - m) * inv_s;
    }
}

torch::Tensor online_softmax_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "online_softmax_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "online_softmax_forward: x must be float32");
    TORCH_CHECK(x.is_contiguous(), "online_softmax_forward: x must be contiguous");
    TORCH_CHECK(x.dim() >= 1, "online_softmax_forward: x needs at least one dimension");

    auto y = torch::empty_like(x);
    const int64_t cols = x.size(-1);
    if (x.numel() == 0) {
        return y;
    }
    const int64_t rows = x.numel() / cols;
    online_softmax_kernel<<<static_cast<unsigned int>(rows), kSoftmaxThreads>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

softmax_ext = load_inline(
    name="kgate_honest_online_softmax",
    cpp_sources=softmax_cpp,
    cuda_sources=softmax_cuda,
    functions=["online_softmax_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.softmax(x, dim=-1) computed by online_softmax_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_ext.online_softmax_forward(x.contiguous())
