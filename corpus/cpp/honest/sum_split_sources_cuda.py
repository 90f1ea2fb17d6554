"""Column sums of a 2-D fp32 tensor; the kernel and the host function sit in separate cuda_sources strings,
which load_inline joins into one translation unit."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

decls = "torch::Tensor col_sum(torch::Tensor x);"

kernel_code = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

constexpr int kThreads = 256;

// One thread per column, coalesced across the row.
__global__ void col_sum_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) acc += x[(int64_t)r * cols + col];
    out[col] = acc;
}
"""

host_code = r"""
torch::Tensor col_sum(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 2, "col_sum: a 2-D CUDA tensor is expected");
    auto xc = x.contiguous();
    const int rows = xc.size(0), cols = xc.size(1);
    auto out = torch::empty({cols}, xc.options());
    if (cols == 0) {
        return out;
    }
    col_sum_kernel<<<(cols + kThreads - 1) / kThreads, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

ext = load_inline(
    name="kgate_cpp_honest_col_sum",
    cpp_sources=[decls],
    cuda_sources=[kernel_code, host_code],
    functions=["col_sum"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.col_sum(x)
