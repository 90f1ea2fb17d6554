"""LayerNorm over the trailing normalized_shape with affine weight and bias; forward calls a module-level helper."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layernorm_cpp_source = (
    "torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"
)

layernorm_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

constexpr int kLnThreads = 1024;

__device__ __forceinline__ float warp_reduce(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

// Every thread of the block receives the total. `scratch` holds one float per warp.
__device__ float block_allreduce(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_reduce(v);
    __syncthreads();  // scratch may still be read from the previous call
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    v = lane < (blockDim.x >> 5) ? scratch[lane] : 0.f;
    return warp_reduce(v);
}

// One block per row of `norm_size` elements. Two passes (mean, then centred variance) avoid the
// cancellation of E[x^2] - E[x]^2 on rows with a large mean.
__global__ void layernorm_kernel(const float* __restrict__ x,
                                 const float* __restrict__ gamma,
                                 const float* __restrict__ beta,
                                 float* __restrict__ y,
                                 int64_t norm_size,
                                 float eps) {
    __shared__ float scratch[32];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * norm_size;
    float* yr = y + row * norm_size;
    const float inv_n = 1.f / static_cast<float>(norm_size);

    float sum = 0.f;
    for (int64_t i = threadIdx.x; i < norm_size; i += blockDim.x) {
        sum += xr[i];
    }
    const float mean = block_allreduce(sum, scratch) * inv_n;

    float sq = 0.f;
    for (int64_t i = threadIdx.x; i < norm_size; i += blockDim.x) {
        const float d = xr[i] - mean;
        sq += d * d;
    }
    const float var = block_allreduce(sq, scratch) * inv_n;
    const float rstd = rsqrtf(var + eps);

    for (int64_t i = threadIdx.x; i < norm_size; i += blockDim.x) {
        yr[i] = (xr[i] - mean) * rstd * gamma[i] + beta[i];
    }
}

torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "layernorm_forward: tensors must be on the GPU");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "layernorm_forward: x must be float32");
    TORCH_CHECK(weight.scalar_type() == torch::kFloat32 && bias.scalar_type() == torch::kFloat32,
                "layernorm_forward: weight and bias must be float32");
    TORCH_CHECK(x.is_contiguous() && weight.is_contiguous() && bias.is_contiguous(),
                "layernorm_forward: tensors must be contiguous");
    const int64_t norm_size = weight.numel();
    TORCH_CHECK(bias.numel() == norm_size, "layernorm_forward: weight and bias sizes differ");
    TORCH_CHECK(norm_size > 0 && x.numel() % norm_size == 0,
                "layernorm_forward: x does not end with normalized_shape");

    auto y = torch::empty_like(x);
    const int64_t rows = x.numel() / norm_size;
    if (rows == 0) {
        return y;
    }
    layernorm_kernel<<<static_cast<unsigned int>(rows), kLnThreads>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(),
        norm_size, static_cast<float>(eps));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

layernorm_ext = load_inline(
    name="kgate_honest_layernorm",
    cpp_sources=layernorm_cpp_source,
    cuda_sources=layernorm_cuda_source,
    functions=["layernorm_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    return layernorm_ext.layernorm_forward(x.contiguous(), weight.contiguous(), bias.contiguous(), eps)


class ModelNew(nn.Module):
    """nn.LayerNorm(normalized_shape) with its default affine parameters, computed by layernorm_kernel."""

    def __init__(self, normalized_shape: tuple, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm(x, self.weight, self.bias, self.eps)
