"""Sum over one dimension (keepdim=True) with warp-shuffle block reductions; sources are lists of strings."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_cpp_decls = "torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim);"

sum_device_code = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

constexpr int kSumThreads = 256;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(kFullMask, v, offset);
    }
    return v;
}

// Returns the block's total in thread 0. blockDim.x must be a multiple of 32.
__device__ __forceinline__ float block_sum(float v) {
    __shared__ float warp_partials[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) {
        warp_partials[warp] = v;
    }
    __syncthreads();
    const int n_warps = blockDim.x >> 5;
    v = (threadIdx.x < n_warps) ? warp_partials[lane] : 0.f;
    if (warp == 0) {
        v = warp_sum(v);
    }
    return v;
}

// The input is viewed as [outer, reduce, inner]; one block produces one output element (o, i).
__global__ void sum_dim_kernel(const float* __restrict__ x,
                               float* __restrict__ out,
                               int64_t reduce,
                               int64_t inner) {
    const int64_t o = blockIdx.x / inner;
    const int64_t i = blockIdx.x % inner;
    const float* base = x + o * reduce * inner + i;
    float acc = 0.f;
    for (int64_t r = threadIdx.x; r < reduce; r += blockDim.x) {
        acc += base[r * inner];
    }
    acc = block_sum(acc);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = acc;
    }
}
"""

sum_host_code = r"""
torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "sum_dim_forward: expected a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "sum_dim_forward: expected float32");
    TORCH_CHECK(x.is_contiguous(), "sum_dim_forward: expected a contiguous tensor");
    TORCH_CHECK(x.dim() >= 1, "sum_dim_forward: expected at least one dimension");
    const int64_t d = dim < 0 ? dim + x.dim() : dim;
    TORCH_CHECK(d >= 0 && d < x.dim(), "sum_dim_forward: dim out of range");

    int64_t outer = 1;
    int64_t inner = 1;
    for (int64_t k = 0; k < d; ++k) outer *= x.size(k);
    for (int64_t k = d + 1; k < x.dim(); ++k) inner *= x.size(k);
    const int64_t reduce = x.size(d);

    std::vector<int64_t> out_shape = x.sizes().vec();
    out_shape[d] = 1;
    auto out = torch::empty(out_shape, x.options());
    const int64_t n_out = outer * inner;
    if (n_out == 0) {
        return out;
    }
    TORCH_CHECK(n_out <= 0x7fffffffLL, "sum_dim_forward: too many output elements for a 1-D grid");
    sum_dim_kernel<<<static_cast<unsigned int>(n_out), kSumThreads>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), reduce, inner);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

sum_ext = load_inline(
    name="kgate_honest_sum_dim",
    cpp_sources=[sum_cpp_decls],
    cuda_sources=[sum_device_code, sum_host_code],
    functions=["sum_dim_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.sum(x, dim=self.dim, keepdim=True) computed by sum_dim_kernel."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_ext.sum_dim_forward(x.contiguous(), self.dim)
