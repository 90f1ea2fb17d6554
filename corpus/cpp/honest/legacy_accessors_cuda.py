"""Row-wise L2 normalisation written against the older extension API that TensorBody.h still keeps:
the dtype comes from the deprecated x.type() and the pointers from data<T>() rather than data_ptr<T>().
One block per row: a shared-memory tree reduction of the squares, then a scaled copy."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor l2_rows(torch::Tensor x);"

cuda_source = r"""
#include <torch/extension.h>

template <typename scalar_t>
__global__ void l2_rows_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int cols) {
    extern __shared__ float partial[];
    const scalar_t* row_in = x + (size_t)blockIdx.x * cols;
    scalar_t* row_out = y + (size_t)blockIdx.x * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = static_cast<float>(row_in[c]);
        acc += v * v;
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int width = blockDim.x / 2; width > 0; width /= 2) {
        if (threadIdx.x < width) partial[threadIdx.x] += partial[threadIdx.x + width];
        __syncthreads();
    }
    const float inv = rsqrtf(fmaxf(partial[0], 1e-24f));
    for (int c = threadIdx.x; c < cols; c += blockDim.x) row_out[c] = static_cast<scalar_t>(row_in[c] * inv);
}

torch::Tensor l2_rows(torch::Tensor x) {
    auto input = x.contiguous();
    auto out = torch::empty_like(input);
    const int rows = input.size(0);
    const int cols = input.size(1);
    const int threads = 256;
    AT_DISPATCH_FLOATING_TYPES(input.type(), "l2_rows", ([&] {
        l2_rows_kernel<scalar_t><<<rows, threads, threads * sizeof(float)>>>(
            input.data<scalar_t>(), out.data<scalar_t>(), cols);
    }));
    return out;
}
"""

l2_ext = load_inline(
    name="kgate_honest_l2_rows_legacy",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["l2_rows"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2_ext.l2_rows(x)
