# runtime-task: tasks/Normalization/layernorm
# runtime-expect: pass
"""LayerNorm over the last dimension with affine weight and bias: one CUDA block per row, fp32 statistics from
two passes (mean, then centred variance) combined with warp-shuffle block reductions."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layernorm_cpp_source = (
    "torch::Tensor layernorm_rows(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"
)

layernorm_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

// Every thread receives the block total; `scratch` holds one partial per warp (at most 32 warps).
__device__ float block_sum(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_sum(v);
    __syncthreads();  // the previous call may still be reading scratch
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = lane < static_cast<int>(blockDim.x >> 5) ? scratch[lane] : 0.f;
    return warp_sum(v);
}

template <typename T>
__global__ void layernorm_rows_kernel(const T* __restrict__ x, const T* __restrict__ weight,
                                      const T* __restrict__ bias, T* __restrict__ y, int64_t cols, float eps) {
    __shared__ float scratch[32];
    const int64_t row = blockIdx.x;
    const T* xr = x + row * cols;
    T* yr = y + row * cols;

    float s = 0.f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += static_cast<float>(xr[c]);
    const float mean = block_sum(s, scratch) / static_cast<float>(cols);

    float sq = 0.f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = static_cast<float>(xr[c]) - mean;
        sq = fmaf(d, d, sq);
    }
    const float rstd = rsqrtf(block_sum(sq, scratch) / static_cast<float>(cols) + eps);

    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = (static_cast<float>(xr[c]) - mean) * rstd;
        yr[c] = static_cast<T>(fmaf(v, static_cast<float>(weight[c]), static_cast<float>(bias[c])));
    }
}

template <typename T>
void launch_layernorm(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, torch::Tensor& y,
                      int64_t rows, int64_t cols, double eps) {
    // Enough threads to give each about four elements, a whole number of warps, at most 1024.
    const int64_t want = (cols + 3) / 4;
    const int threads = static_cast<int>(std::min<int64_t>(1024, std::max<int64_t>(32, (want + 31) / 32 * 32)));
    layernorm_rows_kernel<T><<<static_cast<unsigned>(rows), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<T>(), w.data_ptr<T>(), b.data_ptr<T>(), y.data_ptr<T>(), cols, static_cast<float>(eps));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor layernorm_rows(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "layernorm_rows: CUDA tensors expected");
    TORCH_CHECK(x.is_contiguous() && weight.is_contiguous() && bias.is_contiguous(),
                "layernorm_rows: contiguous tensors expected");
    TORCH_CHECK(x.scalar_type() == weight.scalar_type() && x.scalar_type() == bias.scalar_type(),
                "layernorm_rows: one dtype expected");
    const int64_t cols = weight.numel();
    TORCH_CHECK(cols > 0 && bias.numel() == cols && x.dim() >= 1 && x.numel() % cols == 0,
                "layernorm_rows: weight and bias must cover the trailing dimensions of x");
    auto y = torch::empty_like(x);
    const int64_t rows = x.numel() / cols;
    if (rows == 0) {
        return y;
    }
    switch (x.scalar_type()) {
        case torch::kFloat32: launch_layernorm<float>(x, weight, bias, y, rows, cols, eps); break;
        case torch::kFloat16: launch_layernorm<at::Half>(x, weight, bias, y, rows, cols, eps); break;
        case torch::kBFloat16: launch_layernorm<at::BFloat16>(x, weight, bias, y, rows, cols, eps); break;
        default: TORCH_CHECK(false, "layernorm_rows: float32, float16 or bfloat16 expected, got ", x.scalar_type());
    }
    return y;
}
"""

layernorm_ext = load_inline(
    name="kgate_honest_task_layernorm",
    cpp_sources=layernorm_cpp_source,
    cuda_sources=layernorm_cuda_source,
    functions=["layernorm_rows"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """nn.LayerNorm(normalized_shape, eps=1e-5) with weight ~ U(0.5, 1.5) and bias ~ N(0, 0.5), drawn in the
    reference's order so that one seed gives both models the same parameters."""

    def __init__(self, normalized_shape):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps = 1e-5
        self.weight = nn.Parameter(torch.empty(shape))
        self.bias = nn.Parameter(torch.empty(shape))
        with torch.no_grad():
            self.weight.uniform_(0.5, 1.5)
            self.bias.normal_(0.0, 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layernorm_ext.layernorm_rows(x.contiguous(), self.weight, self.bias, self.eps)
