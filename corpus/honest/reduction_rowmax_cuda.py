"""Row-wise max over the last dimension (torch.max(x, dim=-1).values); the CUDA source is two strings joined with +."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rowmax_common = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <math_constants.h>

// torch.max propagates NaN, so a NaN on either side wins.
__device__ __forceinline__ float nan_max(float a, float b) {
    return (a > b || isnan(a)) ? a : b;
}

__device__ __forceinline__ float warp_max(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v = nan_max(v, __shfl_xor_sync(0xffffffffu, v, offset));
    }
    return v;
}
"""

rowmax_kernels = r"""
constexpr int kRowMaxThreads = 256;

// One block per row; vectorised loads when the row start is 16-byte aligned.
__global__ void rowmax_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t cols) {
    __shared__ float partial[kRowMaxThreads / 32];
    const float* row = x + static_cast<int64_t>(blockIdx.x) * cols;
    float m = -CUDART_INF_F;

    int64_t begin = 0;
    if ((reinterpret_cast<uintptr_t>(row) & 15) == 0) {
        const int64_t n_vec = cols / 4;
        const float4* row4 = reinterpret_cast<const float4*>(row);
        for (int64_t c = threadIdx.x; c < n_vec; c += blockDim.x) {
            const float4 v = row4[c];
            m = nan_max(m, nan_max(nan_max(v.x, v.y), nan_max(v.z, v.w)));
        }
        begin = n_vec * 4;
    }
    for (int64_t c = begin + threadIdx.x; c < cols; c += blockDim.x) {
        m = nan_max(m, row[c]);
    }

    m = warp_max(m);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) {
        partial[warp] = m;
    }
    __syncthreads();
    if (warp == 0) {
        m = lane < (kRowMaxThreads / 32) ? partial[lane] : -CUDART_INF_F;
        m = warp_max(m);
        if (lane == 0) {
            out[blockIdx.x] = m;
        }
    }
}

torch::Tensor rowmax_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "rowmax_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "rowmax_forward: x must be float32");
    TORCH_CHECK(x.is_contiguous(), "rowmax_forward: x must be contiguous");
    TORCH_CHECK(x.dim() >= 1 && x.size(-1) > 0, "rowmax_forward: the last dimension must be non-empty");

    const int64_t cols = x.size(-1);
    const int64_t rows = x.numel() / cols;
    std::vector<int64_t> out_shape(x.sizes().begin(), x.sizes().end() - 1);
    auto out = torch::empty(out_shape, x.options());
    if (rows == 0) {
        return out;
    }
    rowmax_kernel<<<static_cast<unsigned int>(rows), kRowMaxThreads>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

rowmax_ext = load_inline(
    name="kgate_honest_rowmax",
    cpp_sources="torch::Tensor rowmax_forward(torch::Tensor x);",
    cuda_sources=rowmax_common + rowmax_kernels,
    functions=["rowmax_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """Max over the last dimension; forward goes through a method that launches rowmax_kernel."""

    def __init__(self):
        super().__init__()

    def _row_max(self, x: torch.Tensor) -> torch.Tensor:
        return rowmax_ext.rowmax_forward(x.contiguous())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self._row_max(x)
