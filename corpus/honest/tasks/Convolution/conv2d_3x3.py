# runtime-task: tasks/Convolution/conv2d_3x3
# runtime-expect: pass
"""3x3 convolution, stride 1, padding 1, with bias (NCHW): a shared-memory tiled direct-convolution CUDA kernel.

Each block computes a 8x32 tile of output pixels for 8 output channels. Per step it stages 4 input channels of
the (8+2)x(32+2) halo tile and their 8x4x3x3 weights in shared memory; every thread keeps 8 fp32 accumulators.
"""

import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_cpp_source = "torch::Tensor conv3x3_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);"

conv_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cstdint>

constexpr int kTileH = 8;
constexpr int kTileW = 32;
constexpr int kOutPerBlock = 8;   // output channels per block
constexpr int kInPerStep = 4;     // input channels staged per shared-memory step
constexpr int kHaloH = kTileH + 2;
constexpr int kHaloW = kTileW + 2;

template <typename T>
__global__ void __launch_bounds__(kTileH * kTileW)
// ruleid: function-complexity-high
conv3x3_kernel(const T* __restrict__ x,      // [N, C, H, W]
               const T* __restrict__ w,      // [K, C, 3, 3]
               const T* __restrict__ bias,   // [K]
               T* __restrict__ y,            // [N, K, H, W]
               int C, int K, int H, int W, int k_groups) {
    __shared__ float tile[kInPerStep][kHaloH][kHaloW];
    __shared__ float wts[kOutPerBlock][kInPerStep][9];

    const int tid = threadIdx.x;
    const int tx = tid % kTileW;
    const int ty = tid / kTileW;
    const int w0 = blockIdx.x * kTileW;
    const int h0 = blockIdx.y * kTileH;
    const int n = blockIdx.z / k_groups;
    const int k0 = (blockIdx.z % k_groups) * kOutPerBlock;

    float acc[kOutPerBlock];
    #pragma unroll
    for (int j = 0; j < kOutPerBlock; ++j) acc[j] = 0.f;

    const int64_t plane = static_cast<int64_t>(H) * W;
    const T* xn = x + static_cast<int64_t>(n) * C * plane;

    for (int c0 = 0; c0 < C; c0 += kInPerStep) {
        // Halo tile of kInPerStep channels; zero outside the image (padding 1) and past C.
        for (int e = tid; e < kInPerStep * kHaloH * kHaloW; e += kTileH * kTileW) {
            const int ci = e / (kHaloH * kHaloW);
            const int r = (e / kHaloW) % kHaloH;
            const int s = e % kHaloW;
            const int c = c0 + ci;
            const int gh = h0 + r - 1;
            const int gw = w0 + s - 1;
            float v = 0.f;
            if (c < C && gh >= 0 && gh < H && gw >= 0 && gw < W) {
                v = static_cast<float>(xn[c * plane + static_cast<int64_t>(gh) * W + gw]);
            }
            tile[ci][r][s] = v;
        }
        for (int e = tid; e < kOutPerBlock * kInPerStep * 9; e += kTileH * kTileW) {
            const int j = e / (kInPerStep * 9);
            const int ci = (e / 9) % kInPerStep;
            const int q = e % 9;
            const int k = k0 + j;
            const int c = c0 + ci;
            wts[j][ci][q] = (k < K && c < C) ? static_cast<float>(w[(static_cast<int64_t>(k) * C + c) * 9 + q]) : 0.f;
        }
        __syncthreads();

        #pragma unroll
        for (int ci = 0; ci < kInPerStep; ++ci) {
            float patch[9];
            #pragma unroll
            for (int dr = 0; dr < 3; ++dr) {
                #pragma unroll
                for (int ds = 0; ds < 3; ++ds) patch[dr * 3 + ds] = tile[ci][ty + dr][tx + ds];
            }
            #pragma unroll
            for (int j = 0; j < kOutPerBlock; ++j) {
                #pragma unroll
                for (int q = 0; q < 9; ++q) acc[j] = fmaf(patch[q], wts[j][ci][q], acc[j]);
            }
        }
        __syncthreads();
    }

    const int oh = h0 + ty;
    const int ow = w0 + tx;
    if (oh >= H || ow >= W) return;
    #pragma unroll
    for (int j = 0; j < kOutPerBlock; ++j) {
        const int k = k0 + j;
        if (k < K) {
            const float v = acc[j] + static_cast<float>(bias[k]);
            y[(static_cast<int64_t>(n) * K + k) * plane + static_cast<int64_t>(oh) * W + ow] = static_cast<T>(v);
        }
    }
}

template <typename T>
void launch_conv3x3(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, torch::Tensor& y) {
    const int N = static_cast<int>(x.size(0));
    const int C = static_cast<int>(x.size(1));
    const int H = static_cast<int>(x.size(2));
    const int W = static_cast<int>(x.size(3));
    const int K = static_cast<int>(w.size(0));
    const int k_groups = (K + kOutPerBlock - 1) / kOutPerBlock;
    const dim3 grid((W + kTileW - 1) / kTileW, (H + kTileH - 1) / kTileH, N * k_groups);
    conv3x3_kernel<T><<<grid, kTileH * kTileW, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<T>(), w.data_ptr<T>(), b.data_ptr<T>(), y.data_ptr<T>(), C, K, H, W, k_groups);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor conv3x3_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "conv3x3_forward: CUDA tensors expected");
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4 && bias.dim() == 1, "conv3x3_forward: NCHW input, KC33 weight");
    TORCH_CHECK(weight.size(1) == x.size(1) && weight.size(2) == 3 && weight.size(3) == 3 &&
                bias.size(0) == weight.size(0), "conv3x3_forward: shape mismatch");
    TORCH_CHECK(x.scalar_type() == weight.scalar_type() && x.scalar_type() == bias.scalar_type(),
                "conv3x3_forward: one dtype expected");
    TORCH_CHECK(x.is_contiguous() && weight.is_contiguous() && bias.is_contiguous(),
                "conv3x3_forward: contiguous tensors expected");
    auto y = torch::empty({x.size(0), weight.size(0), x.size(2), x.size(3)}, x.options());
    if (y.numel() == 0) {
        return y;
    }
    switch (x.scalar_type()) {
        case torch::kFloat32: launch_conv3x3<float>(x, weight, bias, y); break;
        case torch::kFloat16: launch_conv3x3<at::Half>(x, weight, bias, y); break;
        case torch::kBFloat16: launch_conv3x3<at::BFloat16>(x, weight, bias, y); break;
        default: TORCH_CHECK(false, "conv3x3_forward: float32, float16 or bfloat16 expected, got ", x.scalar_type());
    }
    return y;
}
"""

conv_ext = load_inline(
    name="kgate_honest_task_conv2d_3x3",
    cpp_sources=conv_cpp_source,
    cuda_sources=conv_cuda_source,
    functions=["conv3x3_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """nn.Conv2d(in_channels, out_channels, 3, stride=1, padding=1, bias=True), initialised as nn.Conv2d is."""

    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_channels, in_channels, 3, 3))
        self.bias = nn.Parameter(torch.empty(out_channels))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        fan_in = in_channels * 9
        bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_ext.conv3x3_forward(x.contiguous(), self.weight, self.bias)
