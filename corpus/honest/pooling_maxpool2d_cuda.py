"""nn.MaxPool2d(kernel_size, stride, padding, dilation) on NCHW fp32, one thread per output element."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

maxpool_cpp_source = """
torch::Tensor maxpool2d_forward(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding,
                                int64_t dilation);
"""

maxpool_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void maxpool2d_kernel(const float* __restrict__ x, float* __restrict__ y,
                                 int64_t planes, int H, int W, int OH, int OW,
                                 int k, int stride, int padding, int dilation) {
    const int64_t total = planes * OH * OW;
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total; idx += step) {
        const int ow = static_cast<int>(idx % OW);
        const int oh = static_cast<int>((idx / OW) % OH);
        const int64_t plane = idx / (static_cast<int64_t>(OW) * OH);
        const float* xp = x + plane * H * W;

        const int h0 = oh * stride - padding;
        const int w0 = ow * stride - padding;
        float best = -CUDART_INF_F;
        for (int kh = 0; kh < k; ++kh) {
            const int ih = h0 + kh * dilation;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < k; ++kw) {
                const int iw = w0 + kw * dilation;
                if (iw < 0 || iw >= W) continue;
                const float v = __ldg(xp + ih * W + iw);
                // NaN wins, as in PyTorch's max pooling.
                if (v > best || isnan(v)) best = v;
            }
        }
        y[idx] = best;
    }
}

torch::Tensor maxpool2d_forward(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding,
                                int64_t dilation) {
    TORCH_CHECK(x.is_cuda(), "maxpool2d_forward: x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "maxpool2d_forward: x must be float32");
    TORCH_CHECK(x.dim() == 4, "maxpool2d_forward: x must be NCHW");
    TORCH_CHECK(x.is_contiguous(), "maxpool2d_forward: x must be contiguous");
    TORCH_CHECK(kernel_size > 0 && stride > 0 && dilation > 0, "maxpool2d_forward: bad window");
    TORCH_CHECK(padding >= 0 && 2 * padding <= kernel_size, "maxpool2d_forward: padding must be at most half the kernel");

    const int64_t N = x.size(0), C = x.size(1);
    const int H = static_cast<int>(x.size(2)), W = static_cast<int>(x.size(3));
    const int OH = static_cast<int>((H + 2 * padding - dilation * (kernel_size - 1) - 1) / stride + 1);
    const int OW = static_cast<int>((W + 2 * padding - dilation * (kernel_size - 1) - 1) / stride + 1);
    TORCH_CHECK(OH > 0 && OW > 0, "maxpool2d_forward: output would be empty");

    auto y = torch::empty({N, C, OH, OW}, x.options());
    const int64_t total = N * C * OH * OW;
    if (total == 0) {
        return y;
    }
    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    if (blocks > 65535LL * 8) blocks = 65535LL * 8;
    maxpool2d_kernel<<<static_cast<unsigned int>(blocks), threads>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), N * C, H, W, OH, OW,
        static_cast<int>(kernel_size), static_cast<int>(stride), static_cast<int>(padding),
        static_cast<int>(dilation));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

maxpool_ext = load_inline(
    name="kgate_honest_maxpool2d",
    cpp_sources=maxpool_cpp_source,
    cuda_sources=maxpool_cuda_source,
    functions=["maxpool2d_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """nn.MaxPool2d with square windows, ceil_mode=False."""

    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, dilation: int = 1):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return maxpool_ext.maxpool2d_forward(x.contiguous(), self.kernel_size, self.stride, self.padding,
                                             self.dilation)
