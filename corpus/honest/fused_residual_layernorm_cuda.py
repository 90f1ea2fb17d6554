"""LayerNorm(x + residual) over the last dimension in one kernel, reached through a torch.autograd.Function."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

add_ln_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

constexpr int kAddLnThreads = 256;
constexpr int kMaxCachedPerThread = 16;  // rows up to 4096 elements stay in registers

__device__ __forceinline__ float warp_allreduce_sum(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

__device__ float block_allreduce_sum(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_allreduce_sum(v);
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = lane < (kAddLnThreads / 32) ? scratch[lane] : 0.f;
    return warp_allreduce_sum(v);
}

// One block per row. h = x + residual is formed once; for rows that fit, each thread keeps its
// share of h in registers so x and residual are read from global memory exactly once.
__global__ void __launch_bounds__(kAddLnThreads)
add_layernorm_kernel(const float* __restrict__ x,
                     const float* __restrict__ residual,
                     const float* __restrict__ gamma,
                     const float* __restrict__ beta,
                     float* __restrict__ y,
                     int64_t hidden,
                     float eps) {
    __shared__ float scratch[32];
    const int64_t off = static_cast<int64_t>(blockIdx.x) * hidden;
    const float* xr = x + off;
    const float* rr = residual + off;
    float* yr = y + off;
    const bool cached = hidden <= static_cast<int64_t>(kAddLnThreads) * kMaxCachedPerThread;

    float h_reg[kMaxCachedPerThread];
    float sum = 0.f;
    if (cached) {
        #pragma unroll
        for (int k = 0; k < kMaxCachedPerThread; ++k) {
            const int64_t i = threadIdx.x + static_cast<int64_t>(k) * kAddLnThreads;
            h_reg[k] = i < hidden ? xr[i] + rr[i] : 0.f;
            sum += h_reg[k];
        }
    } else {
        for (int64_t i = threadIdx.x; i < hidden; i += kAddLnThreads) sum += xr[i] + rr[i];
    }
    const float mean = block_allreduce_sum(sum, scratch) / static_cast<float>(hidden);

    float sq = 0.f;
    if (cached) {
        #pragma unroll
        for (int k = 0; k < kMaxCachedPerThread; ++k) {
            const int64_t i = threadIdx.x + static_cast<int64_t>(k) * kAddLnThreads;
            const float d = i < hidden ? h_reg[k] - mean : 0.f;
            sq += d * d;
        }
    } else {
        for (int64_t i = threadIdx.x; i < hidden; i += kAddLnThreads) {
            const float d = xr[i] + rr[i] - mean;
            sq += d * d;
        }
    }
    const float rstd = rsqrtf(block_allreduce_sum(sq, scratch) / static_cast<float>(hidden) + eps);

    if (cached) {
        #pragma unroll
        for (int k = 0; k < kMaxCachedPerThread; ++k) {
            const int64_t i = threadIdx.x + static_cast<int64_t>(k) * kAddLnThreads;
            if (i < hidden) yr[i] = (h_reg[k] - mean) * rstd * gamma[i] + beta[i];
        }
    } else {
        for (int64_t i = threadIdx.x; i < hidden; i += kAddLnThreads) {
            yr[i] = (xr[i] + rr[i] - mean) * rstd * gamma[i] + beta[i];
        }
    }
}

torch::Tensor add_layernorm_forward(torch::Tensor x, torch::Tensor residual, torch::Tensor weight,
                                    torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && residual.is_cuda() && weight.is_cuda() && bias.is_cuda(),
                "add_layernorm_forward: all tensors must be on the GPU");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && residual.scalar_type() == torch::kFloat32 &&
                weight.scalar_type() == torch::kFloat32 && bias.scalar_type() == torch::kFloat32,
                "add_layernorm_forward: all tensors must be float32");
    TORCH_CHECK(x.sizes() == residual.sizes(), "add_layernorm_forward: x and residual shapes differ");
    TORCH_CHECK(x.is_contiguous() && residual.is_contiguous() && weight.is_contiguous() && bias.is_contiguous(),
                "add_layernorm_forward: all tensors must be contiguous");
    TORCH_CHECK(x.dim() >= 1 && weight.numel() == x.size(-1) && bias.numel() == x.size(-1),
                "add_layernorm_forward: weight/bias must match the last dimension");

    auto y = torch::empty_like(x);
    const int64_t hidden = x.size(-1);
    if (x.numel() == 0) {
        return y;
    }
    const int64_t rows = x.numel() / hidden;
    add_layernorm_kernel<<<static_cast<unsigned int>(rows), kAddLnThreads>>>(
        x.data_ptr<float>(), residual.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(),
        y.data_ptr<float>(), hidden, static_cast<float>(eps));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

add_ln_ext = load_inline(
    name="kgate_honest_add_layernorm",
    cpp_sources=[
        "torch::Tensor add_layernorm_forward(torch::Tensor x, torch::Tensor residual, torch::Tensor weight, "
        "torch::Tensor bias, double eps);"
    ],
    cuda_sources=add_ln_cuda_source,
    functions=["add_layernorm_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class FusedAddLayerNorm(torch.autograd.Function):
    """Inference-only: the forward launches add_layernorm_kernel; no backward is provided."""

    @staticmethod
    def forward(ctx, x, residual, weight, bias, eps):
        return add_ln_ext.add_layernorm_forward(x.contiguous(), residual.contiguous(), weight, bias, eps)

    @staticmethod
    def backward(ctx, grad_out):
        raise NotImplementedError("FusedAddLayerNorm is forward-only")


class ModelNew(nn.Module):
    """nn.LayerNorm(hidden)(x + residual)."""

    def __init__(self, hidden: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return FusedAddLayerNorm.apply(x, residual, self.weight, self.bias, self.eps)
