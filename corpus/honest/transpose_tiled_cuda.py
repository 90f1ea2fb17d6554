"""Out-of-place 2-D transpose (x.t().contiguous()) through a padded shared-memory tile. The CUDA source is an
f-string with no substitutions, so its braces are doubled."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

transpose_cpp_source = "torch::Tensor transpose_forward(torch::Tensor x);"

transpose_cuda_source = f"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

// out[c, r] = in[r, c] for a row-major [rows, cols] matrix. A 32x33 shared tile (one column of
// padding) keeps both the coalesced read and the coalesced write free of bank conflicts.
__global__ void transpose_tiled_kernel(const float* __restrict__ in, float* __restrict__ out,
                                       int64_t rows, int64_t cols) {{
    __shared__ float tile[kTile][kTile + 1];
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kTile + threadIdx.x;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * kTile;
    for (int dy = threadIdx.y; dy < kTile; dy += kRowsPerPass) {{
        const int64_t r = r0 + dy;
        if (r < rows && c < cols) {{
            tile[dy][threadIdx.x] = in[r * cols + c];
        }}
    }}
    __syncthreads();
    const int64_t oc = r0 + threadIdx.x;                                  // column of out = row of in
    const int64_t or0 = static_cast<int64_t>(blockIdx.x) * kTile;         // first row of out
    for (int dy = threadIdx.y; dy < kTile; dy += kRowsPerPass) {{
        const int64_t orow = or0 + dy;
        if (orow < cols && oc < rows) {{
            out[orow * rows + oc] = tile[threadIdx.x][dy];
        }}
    }}
}}

torch::Tensor transpose_forward(torch::Tensor x) {{
    TORCH_CHECK(x.is_cuda(), "transpose_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "transpose_forward: x must be float32");
    TORCH_CHECK(x.dim() == 2, "transpose_forward: x must be 2-D");
    TORCH_CHECK(x.is_contiguous(), "transpose_forward: x must be contiguous");

    const int64_t rows = x.size(0);
    const int64_t cols = x.size(1);
    auto out = torch::empty({{cols, rows}}, x.options());
    if (rows == 0 || cols == 0) {{
        return out;
    }}
    TORCH_CHECK((rows + kTile - 1) / kTile <= 65535, "transpose_forward: too many rows for the grid");
    const dim3 block(kTile, kRowsPerPass);
    const dim3 grid(static_cast<unsigned int>((cols + kTile - 1) / kTile),
                    static_cast<unsigned int>((rows + kTile - 1) / kTile));
    transpose_tiled_kernel<<<grid, block>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}}
"""

transpose_ext = load_inline(
    name="kgate_honest_transpose",
    cpp_sources=transpose_cpp_source,
    cuda_sources=transpose_cuda_source,
    functions=["transpose_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """Returns a new contiguous tensor holding the transpose of a 2-D fp32 input."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return transpose_ext.transpose_forward(x.contiguous())
