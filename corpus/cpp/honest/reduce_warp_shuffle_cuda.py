"""Row sums of a 2-D fp32 tensor: a block per row, warp-shuffle reductions, then a shared-memory pass."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor row_sum(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float warp_reduce_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void row_sum_kernel(const float* __restrict__ x, float* __restrict__ out, int cols) {
    __shared__ float partial[32];
    const float* row = x + static_cast<int64_t>(blockIdx.x) * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += row[c];
    acc = warp_reduce_sum(acc);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) partial[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < (blockDim.x >> 5) ? partial[lane] : 0.0f;
        acc = warp_reduce_sum(acc);
        if (lane == 0) out[blockIdx.x] = acc;
    }
}

torch::Tensor row_sum(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 2, "row_sum: a 2-D CUDA tensor is expected");
    auto xc = x.contiguous();
    const int rows = xc.size(0), cols = xc.size(1);
    auto out = torch::empty({rows}, xc.options());
    if (rows == 0) return out;
    const int threads = 256;
    row_sum_kernel<<<rows, threads, 0, at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

ext = load_inline(
    name="kgate_cpp_honest_row_sum",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["row_sum"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.row_sum(x)
