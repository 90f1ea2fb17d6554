"""Frobenius-norm normalisation, x / ||x||_F, in two kernels of the submission's own: a grid-stride
sum of squares into a one-element tensor, then a scale by its inverse square root. The host code
between them reads metadata (sizes, options, dtype, device) and takes the square root of the
one-element norm with ATen: glue, not compute."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor frobenius_normalize(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>

__global__ void sum_squares_kernel(const float* __restrict__ x, float* __restrict__ total, int64_t n) {
    __shared__ float partial[256];
    float acc = 0.0f;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        acc += x[i] * x[i];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

__global__ void scale_kernel(const float* __restrict__ x, const float* __restrict__ inv_norm,
                             float* __restrict__ out, int64_t n) {
    const float s = inv_norm[0];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = x[i] * s;
}

torch::Tensor frobenius_normalize(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "frobenius_normalize: fp32 CUDA tensor expected");
    auto input = x.contiguous();
    const int64_t n = input.numel();
    auto sizes = input.sizes();
    auto out_sizes = sizes.vec();
    auto total = torch::zeros(1, torch::TensorOptions().device(input.device()).dtype(input.dtype()));
    const int threads = 256;
    const int blocks = static_cast<int>(std::min<int64_t>((n + threads - 1) / threads, 1024));
    sum_squares_kernel<<<blocks, threads>>>(input.data_ptr<float>(), total.data_ptr<float>(), n);
    auto inv_norm = total.sqrt().reciprocal();
    auto out = torch::empty(out_sizes, torch::dtype(torch::kFloat32).device(input.device()));
    scale_kernel<<<blocks, threads>>>(input.data_ptr<float>(), inv_norm.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

frobenius = load_inline(
    name="frobenius_normalize",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["frobenius_normalize"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return frobenius.frobenius_normalize(x)
