"""torch.cumsum(x, dim): one block per scanned line, a warp-shuffle block scan over chunks with a running carry."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

scan_cpp_source = "torch::Tensor cumsum_forward(torch::Tensor x, int64_t dim);"

scan_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

constexpr int kScanThreads = 512;
constexpr int kItems = 4;                       // consecutive elements per thread
constexpr int kChunk = kScanThreads * kItems;   // elements per block iteration
constexpr int kWarps = kScanThreads / 32;

// x is viewed as [outer, length, inner]; block b scans line (b / inner, :, b % inner).
__global__ void __launch_bounds__(kScanThreads)
// ruleid: function-complexity-high
line_cumsum_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t length, int64_t inner) {
    __shared__ float warp_incl[kWarps];
    __shared__ float carry;

    const int64_t o = blockIdx.x / inner;
    const int64_t i = blockIdx.x % inner;
    const int64_t base = o * length * inner + i;
    const float* xl = x + base;
    float* yl = y + base;

    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) carry = 0.f;
    __syncthreads();

    for (int64_t chunk = 0; chunk < length; chunk += kChunk) {
        // 1. sequential inclusive scan of this thread's items
        const int64_t first = chunk + static_cast<int64_t>(threadIdx.x) * kItems;
        float items[kItems];
        float running = 0.f;
        #pragma unroll
        for (int k = 0; k < kItems; ++k) {
            const int64_t l = first + k;
            running += (l < length) ? xl[l * inner] : 0.f;
            items[k] = running;
        }

        // 2. inclusive scan of the per-thread totals inside each warp
        float t = running;
        #pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const float up = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t += up;
        }
        if (lane == 31) warp_incl[warp] = t;
        __syncthreads();

        // 3. inclusive scan of the warp totals by warp 0
        if (warp == 0) {
            float w = lane < kWarps ? warp_incl[lane] : 0.f;
            #pragma unroll
            for (int d = 1; d < 32; d <<= 1) {
                const float up = __shfl_up_sync(0xffffffffu, w, d);
                if (lane >= d) w += up;
            }
            if (lane < kWarps) warp_incl[lane] = w;
        }
        __syncthreads();

        // 4. exclusive prefix of this thread = carry + earlier warps + earlier lanes
        const float prefix = carry + (warp > 0 ? warp_incl[warp - 1] : 0.f) + (t - running);
        #pragma unroll
        for (int k = 0; k < kItems; ++k) {
            const int64_t l = first + k;
            if (l < length) yl[l * inner] = prefix + items[k];
        }
        __syncthreads();  // everyone has read carry and warp_incl
        if (threadIdx.x == kScanThreads - 1) carry = prefix + running;
        __syncthreads();
    }
}

torch::Tensor cumsum_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "cumsum_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "cumsum_forward: x must be float32");
    TORCH_CHECK(x.is_contiguous(), "cumsum_forward: x must be contiguous");
    TORCH_CHECK(x.dim() >= 1, "cumsum_forward: x needs at least one dimension");
    const int64_t d = dim < 0 ? dim + x.dim() : dim;
    TORCH_CHECK(d >= 0 && d < x.dim(), "cumsum_forward: dim out of range");

    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < d; ++k) outer *= x.size(k);
    for (int64_t k = d + 1; k < x.dim(); ++k) inner *= x.size(k);
    const int64_t length = x.size(d);

    auto y = torch::empty_like(x);
    if (x.numel() == 0) {
        return y;
    }
    line_cumsum_kernel<<<static_cast<unsigned int>(outer * inner), kScanThreads>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), length, inner);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

scan_ext = load_inline(
    name="kgate_honest_cumsum",
    cpp_sources=scan_cpp_source,
    cuda_sources=scan_cuda_source,
    functions=["cumsum_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.cumsum(x, dim=self.dim)."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return scan_ext.cumsum_forward(x.contiguous(), self.dim)
