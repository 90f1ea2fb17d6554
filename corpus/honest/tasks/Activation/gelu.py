# runtime-task: tasks/Activation/gelu
# runtime-expect: pass
"""Exact (erf) GELU over any contiguous tensor: a grid-stride CUDA kernel with 16-byte vector loads and stores."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gelu_cpp_source = "torch::Tensor gelu_forward(torch::Tensor x);"

gelu_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>

// V elements of T moved as one aligned 16-byte (or smaller) transaction.
template <typename T, int V>
struct alignas(sizeof(T) * V) Packet {
    T v[V];
};

__device__ __forceinline__ float gelu_erf(float x) {
    return 0.5f * x * (1.0f + erff(x * 0.70710678118654752440f));
}

// Packets first, then the tail of n % V scalars; the math is done in fp32 for every dtype.
template <typename T, int V>
__global__ void gelu_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t n) {
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t packets = n / V;
    const auto* xp = reinterpret_cast<const Packet<T, V>*>(x);
    auto* yp = reinterpret_cast<Packet<T, V>*>(y);
    for (int64_t i = first; i < packets; i += stride) {
        Packet<T, V> p = xp[i];
        #pragma unroll
        for (int k = 0; k < V; ++k) {
            p.v[k] = static_cast<T>(gelu_erf(static_cast<float>(p.v[k])));
        }
        yp[i] = p;
    }
    for (int64_t i = packets * V + first; i < n; i += stride) {
        y[i] = static_cast<T>(gelu_erf(static_cast<float>(x[i])));
    }
}

template <typename T>
void launch_gelu(const torch::Tensor& x, torch::Tensor& y) {
    constexpr int kThreads = 256;
    constexpr int kVec = 16 / sizeof(T);
    const int64_t n = x.numel();
    const T* xs = x.data_ptr<T>();
    T* ys = y.data_ptr<T>();
    const bool aligned = reinterpret_cast<std::uintptr_t>(xs) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(ys) % 16 == 0;
    const int vec = aligned ? kVec : 1;
    const int64_t work = (n + vec - 1) / vec;
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int blocks = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>((work + kThreads - 1) / kThreads, sms * 8)));
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (aligned) {
        gelu_kernel<T, kVec><<<blocks, kThreads, 0, stream>>>(xs, ys, n);
    } else {
        gelu_kernel<T, 1><<<blocks, kThreads, 0, stream>>>(xs, ys, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor gelu_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "gelu_forward: a CUDA tensor is expected");
    TORCH_CHECK(x.is_contiguous(), "gelu_forward: a contiguous tensor is expected");
    auto y = torch::empty_like(x);
    if (x.numel() == 0) {
        return y;
    }
    switch (x.scalar_type()) {
        case torch::kFloat32: launch_gelu<float>(x, y); break;
        case torch::kFloat16: launch_gelu<at::Half>(x, y); break;
        case torch::kBFloat16: launch_gelu<at::BFloat16>(x, y); break;
        default: TORCH_CHECK(false, "gelu_forward: float32, float16 or bfloat16 expected, got ", x.scalar_type());
    }
    return y;
}
"""

gelu_ext = load_inline(
    name="kgate_honest_task_gelu",
    cpp_sources=gelu_cpp_source,
    cuda_sources=gelu_cuda_source,
    functions=["gelu_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """F.gelu(x) with approximate='none', computed by gelu_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu_ext.gelu_forward(x.contiguous())
