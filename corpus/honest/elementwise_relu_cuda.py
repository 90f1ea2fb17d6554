"""ReLU over an fp32 tensor of any shape: one float4-vectorised grid-stride kernel plus a scalar tail."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cpp_source = "torch::Tensor relu_forward(torch::Tensor x);"

relu_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cstdint>

// (v < 0) ? 0 : v keeps NaN as NaN, like torch.relu; fmaxf would turn it into 0.
__device__ __forceinline__ float relu_scalar(float v) { return v < 0.f ? 0.f : v; }

__global__ void relu_vec4_kernel(const float4* __restrict__ x,
                                 float4* __restrict__ y,
                                 int64_t n_vec) {
    int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (; i < n_vec; i += stride) {
        float4 v = x[i];
        v.x = relu_scalar(v.x);
        v.y = relu_scalar(v.y);
        v.z = relu_scalar(v.z);
        v.w = relu_scalar(v.w);
        y[i] = v;
    }
}

__global__ void relu_scalar_kernel(const float* __restrict__ x,
                                   float* __restrict__ y,
                                   int64_t begin,
                                   int64_t n) {
    int64_t i = begin + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (; i < n; i += stride) {
        y[i] = relu_scalar(x[i]);
    }
}

inline int64_t blocks_for(int64_t work, int threads) {
    int64_t blocks = (work + threads - 1) / threads;
    const int64_t cap = 65535LL * 16;
    return blocks < 1 ? 1 : (blocks > cap ? cap : blocks);
}

torch::Tensor relu_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "relu_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "relu_forward: x must be float32");
    TORCH_CHECK(x.is_contiguous(), "relu_forward: x must be contiguous");

    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) {
        return y;
    }

    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const int threads = 256;

    // float4 needs 16-byte alignment; a sliced input may not have it.
    const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(yp) % 16 == 0);
    int64_t vec_done = 0;
    if (aligned) {
        const int64_t n_vec = n / 4;
        if (n_vec > 0) {
            relu_vec4_kernel<<<blocks_for(n_vec, threads), threads>>>(
                reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), n_vec);
        }
        vec_done = n_vec * 4;
    }
    if (vec_done < n) {
        relu_scalar_kernel<<<blocks_for(n - vec_done, threads), threads>>>(xp, yp, vec_done, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

relu_ext = load_inline(
    name="kgate_honest_relu_vec4",
    cpp_sources=relu_cpp_source,
    cuda_sources=relu_cuda_source,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.relu(x) computed by relu_vec4_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return relu_ext.relu_forward(x.contiguous())
