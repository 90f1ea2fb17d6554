# runtime-task: tasks/Pooling/maxpool2d
# runtime-expect: pass
"""2-D max pooling (NCHW, 3x3 window, stride 2, padding 1): one CUDA thread per output element, grid-stride,
padding never wins and NaN propagates as in PyTorch."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

maxpool_cpp_source = (
    "torch::Tensor maxpool2d_forward(torch::Tensor x, int64_t kernel, int64_t stride, int64_t padding);"
)

maxpool_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <math_constants.h>
#include <algorithm>
#include <cstdint>

template <typename T>
__global__ void maxpool2d_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t planes, int H, int W,
                                 int OH, int OW, int kernel, int stride, int padding) {
    const int64_t total = planes * OH * OW;
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
        const int ow = static_cast<int>(i % OW);
        const int oh = static_cast<int>((i / OW) % OH);
        const int64_t plane = i / (static_cast<int64_t>(OW) * OH);
        const T* xp = x + plane * H * W;
        const int h_begin = oh * stride - padding;
        const int w_begin = ow * stride - padding;
        const int h_end = min(h_begin + kernel, H);
        const int w_end = min(w_begin + kernel, W);
        float best = -CUDART_INF_F;
        for (int h = max(h_begin, 0); h < h_end; ++h) {
            for (int w = max(w_begin, 0); w < w_end; ++w) {
                const float v = static_cast<float>(xp[static_cast<int64_t>(h) * W + w]);
                const bool v_is_nan = v != v;  // NaN wins, as in PyTorch, and ends the scan
                if (v > best || v_is_nan) best = v;
                if (v_is_nan) break;
            }
        }
        y[i] = static_cast<T>(best);
    }
}

template <typename T>
void launch_maxpool(const torch::Tensor& x, torch::Tensor& y, int kernel, int stride, int padding) {
    constexpr int kThreads = 256;
    const int64_t planes = x.size(0) * x.size(1);
    const int H = static_cast<int>(x.size(2)), W = static_cast<int>(x.size(3));
    const int OH = static_cast<int>(y.size(2)), OW = static_cast<int>(y.size(3));
    const int64_t total = y.numel();
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int blocks = static_cast<int>(
        std::max<int64_t>(1, std::min<int64_t>((total + kThreads - 1) / kThreads, static_cast<int64_t>(sms) * 16)));
    maxpool2d_kernel<T><<<blocks, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<T>(), y.data_ptr<T>(), planes, H, W, OH, OW, kernel, stride, padding);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor maxpool2d_forward(torch::Tensor x, int64_t kernel, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4 && x.is_contiguous(), "maxpool2d_forward: a contiguous CUDA NCHW tensor expected");
    TORCH_CHECK(kernel > 0 && stride > 0 && padding >= 0 && 2 * padding <= kernel,
                "maxpool2d_forward: kernel > 0, stride > 0 and padding at most half the kernel expected");
    const int64_t OH = (x.size(2) + 2 * padding - kernel) / stride + 1;
    const int64_t OW = (x.size(3) + 2 * padding - kernel) / stride + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "maxpool2d_forward: the output would be empty");
    auto y = torch::empty({x.size(0), x.size(1), OH, OW}, x.options());
    if (y.numel() == 0) {
        return y;
    }
    const int k = static_cast<int>(kernel), s = static_cast<int>(stride), p = static_cast<int>(padding);
    switch (x.scalar_type()) {
        case torch::kFloat32: launch_maxpool<float>(x, y, k, s, p); break;
        case torch::kFloat16: launch_maxpool<at::Half>(x, y, k, s, p); break;
        case torch::kBFloat16: launch_maxpool<at::BFloat16>(x, y, k, s, p); break;
        default: TORCH_CHECK(false, "maxpool2d_forward: float32, float16 or bfloat16 expected, got ", x.scalar_type());
    }
    return y;
}
"""

maxpool_ext = load_inline(
    name="kgate_honest_task_maxpool2d",
    cpp_sources=maxpool_cpp_source,
    cuda_sources=maxpool_cuda_source,
    functions=["maxpool2d_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """nn.MaxPool2d(kernel_size=3, stride=2, padding=1), computed by maxpool2d_kernel."""

    def __init__(self):
        super().__init__()
        self.kernel_size = 3
        self.stride = 2
        self.padding = 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return maxpool_ext.maxpool2d_forward(x.contiguous(), self.kernel_size, self.stride, self.padding)
