# runtime-task: tasks/Index/embedding_gather
# runtime-expect: pass
"""Embedding lookup table[idx]: one warp copies one row, with 16-byte vector loads when the row allows them."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gather_cpp_source = "torch::Tensor embedding_gather(torch::Tensor table, torch::Tensor idx);"

gather_cuda_source = r"""
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

// Row r of the output is row idx[r] of the table; V elements move per load (V divides D).
template <typename T, int V>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
embedding_gather_kernel(const T* __restrict__ table, const int64_t* __restrict__ idx, T* __restrict__ out,
                        int64_t rows, int64_t num_embeddings, int64_t dim) {
    const int lane = threadIdx.x & 31;
    const int64_t warp = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + (threadIdx.x >> 5);
    const int64_t warps = static_cast<int64_t>(gridDim.x) * kWarpsPerBlock;
    const int64_t packets = dim / V;
    for (int64_t r = warp; r < rows; r += warps) {
        const int64_t src = idx[r];
        CUDA_KERNEL_ASSERT(src >= 0 && src < num_embeddings);
        const auto* from = reinterpret_cast<const Packet<T, V>*>(table + src * dim);
        auto* to = reinterpret_cast<Packet<T, V>*>(out + r * dim);
        for (int64_t p = lane; p < packets; p += 32) {
            to[p] = from[p];
        }
    }
}

template <typename T>
void launch_gather(const torch::Tensor& table, const torch::Tensor& idx, torch::Tensor& out) {
    constexpr int kVec = 16 / sizeof(T);
    const int64_t rows = idx.numel();
    const int64_t dim = table.size(1);
    const bool vectorizable = dim % kVec == 0 &&
                              reinterpret_cast<std::uintptr_t>(table.data_ptr<T>()) % 16 == 0 &&
                              reinterpret_cast<std::uintptr_t>(out.data_ptr<T>()) % 16 == 0;
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int blocks = static_cast<int>(std::max<int64_t>(
        1, std::min<int64_t>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock, static_cast<int64_t>(sms) * 16)));
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (vectorizable) {
        embedding_gather_kernel<T, kVec><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(
            table.data_ptr<T>(), idx.data_ptr<int64_t>(), out.data_ptr<T>(), rows, table.size(0), dim);
    } else {
        embedding_gather_kernel<T, 1><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(
            table.data_ptr<T>(), idx.data_ptr<int64_t>(), out.data_ptr<T>(), rows, table.size(0), dim);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor embedding_gather(torch::Tensor table, torch::Tensor idx) {
    TORCH_CHECK(table.is_cuda() && idx.is_cuda(), "embedding_gather: CUDA tensors expected");
    TORCH_CHECK(table.dim() == 2 && table.is_contiguous(), "embedding_gather: a contiguous [V, D] table expected");
    TORCH_CHECK(idx.scalar_type() == torch::kInt64 && idx.is_contiguous(),
                "embedding_gather: contiguous int64 indices expected");
    std::vector<int64_t> out_shape(idx.sizes().begin(), idx.sizes().end());
    out_shape.push_back(table.size(1));
    auto out = torch::empty(out_shape, table.options());
    if (out.numel() == 0) {
        return out;
    }
    switch (table.scalar_type()) {
        case torch::kFloat32: launch_gather<float>(table, idx, out); break;
        case torch::kFloat16: launch_gather<at::Half>(table, idx, out); break;
        case torch::kBFloat16: launch_gather<at::BFloat16>(table, idx, out); break;
        default: TORCH_CHECK(false, "embedding_gather: float32, float16 or bfloat16 expected, got ", table.scalar_type());
    }
    return out;
}
"""

gather_ext = load_inline(
    name="kgate_honest_task_embedding_gather",
    cpp_sources=gather_cpp_source,
    cuda_sources=gather_cuda_source,
    functions=["embedding_gather"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """nn.Embedding(num_embeddings, embedding_dim), weights drawn as nn.Embedding draws them (N(0, 1))."""

    def __init__(self, num_embeddings: int, embedding_dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(num_embeddings, embedding_dim))
        nn.init.normal_(self.weight)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        return gather_ext.embedding_gather(self.weight, idx.contiguous())
