# runtime-task: tasks/LinearAlgebra/batched_matvec
# runtime-expect: pass
"""Batched matrix-vector product y[b] = A[b] @ x[b]: one warp per output row, vector loads, fp32 warp-shuffle sum."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matvec_cpp_source = "torch::Tensor batched_matvec(torch::Tensor A, torch::Tensor x);"

matvec_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>

template <typename T, int V>
struct alignas(sizeof(T) * V) Packet {
    T v[V];
};

constexpr int kWarpsPerBlock = 8;

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

// Row (b, m) of y is the dot product of A[b, m, :] and x[b, :]; V elements per load (V divides N).
template <typename T, int V>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
batched_matvec_kernel(const T* __restrict__ A, const T* __restrict__ x, T* __restrict__ y,
                      int64_t batches, int64_t M, int64_t N) {
    const int lane = threadIdx.x & 31;
    const int64_t rows = batches * M;
    const int64_t packets = N / V;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * kWarpsPerBlock;
    for (int64_t row = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + (threadIdx.x >> 5); row < rows;
         row += warps) {
        const int64_t b = row / M;
        const auto* a_row = reinterpret_cast<const Packet<T, V>*>(A + row * N);
        const auto* x_row = reinterpret_cast<const Packet<T, V>*>(x + b * N);
        float acc = 0.f;
        for (int64_t p = lane; p < packets; p += 32) {
            const Packet<T, V> a = a_row[p];
            const Packet<T, V> v = x_row[p];
            #pragma unroll
            for (int k = 0; k < V; ++k) acc = fmaf(static_cast<float>(a.v[k]), static_cast<float>(v.v[k]), acc);
        }
        acc = warp_sum(acc);
        if (lane == 0) y[row] = static_cast<T>(acc);
    }
}

template <typename T>
void launch_matvec(const torch::Tensor& A, const torch::Tensor& x, torch::Tensor& y) {
    constexpr int kVec = 16 / sizeof(T);
    const int64_t batches = A.size(0), M = A.size(1), N = A.size(2);
    const bool vectorizable = N % kVec == 0 &&
                              reinterpret_cast<std::uintptr_t>(A.data_ptr<T>()) % 16 == 0 &&
                              reinterpret_cast<std::uintptr_t>(x.data_ptr<T>()) % 16 == 0;
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int64_t rows = batches * M;
    const int blocks = static_cast<int>(std::max<int64_t>(
        1, std::min<int64_t>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock, static_cast<int64_t>(sms) * 32)));
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (vectorizable) {
        batched_matvec_kernel<T, kVec><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(
            A.data_ptr<T>(), x.data_ptr<T>(), y.data_ptr<T>(), batches, M, N);
    } else {
        batched_matvec_kernel<T, 1><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(
            A.data_ptr<T>(), x.data_ptr<T>(), y.data_ptr<T>(), batches, M, N);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor batched_matvec(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.is_cuda() && x.is_cuda(), "batched_matvec: CUDA tensors expected");
    TORCH_CHECK(A.dim() == 3 && x.dim() == 2 && A.size(0) == x.size(0) && A.size(2) == x.size(1),
                "batched_matvec: A [B, M, N] and x [B, N] expected");
    TORCH_CHECK(A.scalar_type() == x.scalar_type(), "batched_matvec: one dtype expected");
    TORCH_CHECK(A.is_contiguous() && x.is_contiguous(), "batched_matvec: contiguous tensors expected");
    auto y = torch::empty({A.size(0), A.size(1)}, A.options());
    if (y.numel() == 0) {
        return y;
    }
    switch (A.scalar_type()) {
        case torch::kFloat32: launch_matvec<float>(A, x, y); break;
        case torch::kFloat16: launch_matvec<at::Half>(A, x, y); break;
        case torch::kBFloat16: launch_matvec<at::BFloat16>(A, x, y); break;
        default: TORCH_CHECK(false, "batched_matvec: float32, float16 or bfloat16 expected, got ", A.scalar_type());
    }
    return y;
}
"""

matvec_ext = load_inline(
    name="kgate_honest_task_batched_matvec",
    cpp_sources=matvec_cpp_source,
    cuda_sources=matvec_cuda_source,
    functions=["batched_matvec"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """y[b] = A[b] @ x[b] for A [B, M, N] and x [B, N], computed by batched_matvec_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return matvec_ext.batched_matvec(A.contiguous(), x.contiguous())
