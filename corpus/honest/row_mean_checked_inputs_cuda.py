"""Mean over the last dimension: a C++ entry that checks its input with CHECK_INPUT macros, takes its
shape and options for the output, and hands x's data to a warp-per-row kernel through a helper. Every
use but the last reads only metadata; the last reads the values."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor row_mean(torch::Tensor x);"

cuda_source = r"""
#include <torch/extension.h>

#define CHECK_CUDA(t) TORCH_CHECK(t.is_cuda(), #t " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(t) TORCH_CHECK(t.is_contiguous(), #t " must be contiguous")
#define CHECK_INPUT(t) CHECK_CUDA(t); CHECK_CONTIGUOUS(t)

__global__ void row_mean_kernel(const float* __restrict__ x, float* __restrict__ out, int rows, int cols) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += x[static_cast<long>(row) * cols + c];
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffff, s, offset);
    if (lane == 0) out[row] = s / cols;
}

static void launch_row_mean(const torch::Tensor& x, torch::Tensor& out, int rows, int cols) {
    const int warps = 8;
    row_mean_kernel<<<(rows + warps - 1) / warps, warps * 32>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows,
                                                                 cols);
}

torch::Tensor row_mean(torch::Tensor x) {
    CHECK_INPUT(x);
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "row_mean: x must be float32");
    const int cols = static_cast<int>(x.size(-1));
    const int rows = static_cast<int>(x.numel() / cols);
    auto sizes = x.sizes().vec();
    sizes.pop_back();
    auto out = torch::empty(sizes, x.options());
    launch_row_mean(x, out, rows, cols);
    return out;
}
"""

ext = load_inline(
    name="kgate_honest_row_mean_checked",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["row_mean"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.mean(x, dim=-1) by row_mean_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.row_mean(x.contiguous())
