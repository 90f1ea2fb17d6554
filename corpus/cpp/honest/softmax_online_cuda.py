"""Row softmax with the online (single-pass max and sum) recurrence; one warp per row, shuffles merge (m, s) pairs."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor online_softmax(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cfloat>

__global__ void online_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float* in = x + (int64_t)row * cols;
    float m = -FLT_MAX, s = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        const float v = in[c];
        const float m_new = fmaxf(m, v);
        s = s * __expf(m - m_new) + __expf(v - m_new);
        m = m_new;
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        const float m_o = __shfl_xor_sync(0xffffffffu, m, offset);
        const float s_o = __shfl_xor_sync(0xffffffffu, s, offset);
        const float m_new = fmaxf(m, m_o);
        s = s * __expf(m - m_new) + s_o * __expf(m_o - m_new);
        m = m_new;
    }
    const float inv = 1.0f / s;
    float* out = y + (int64_t)row * cols;
    for (int c = lane; c < cols; c += 32) out[c] = __expf(in[c] - m) * inv;
}

torch::Tensor online_softmax(torch::Tensor x) {
    TORCH_CHECK(x.dim() == 2 && x.scalar_type() == torch::kFloat32, "online_softmax: 2-D fp32 expected");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int rows = xc.size(0), cols = xc.size(1);
    const int warps_per_block = 8;
    const int blocks = (rows + warps_per_block - 1) / warps_per_block;
    if (blocks > 0) {
        online_softmax_kernel<<<blocks, warps_per_block * 32, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_honest_online_softmax",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["online_softmax"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.online_softmax(x)
