"""Direct 2-D convolution (NCHW, groups=1, stride/padding/dilation, optional bias): one thread per output pixel,
the filter of the block's output channel staged in shared memory."""

import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_cpp_source = """
torch::Tensor conv2d_direct(torch::Tensor x, torch::Tensor weight, c10::optional<torch::Tensor> bias,
                            int64_t stride, int64_t padding, int64_t dilation);
"""

conv_cuda_source = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

constexpr int kConvThreads = 256;

// grid = (pixel tiles, C_out, N). The filter for this block's output channel is loaded into
// dynamic shared memory once (C_in * KH * KW floats), then each thread computes one output pixel.
__global__ void conv2d_direct_kernel(const float* __restrict__ x,
                                     const float* __restrict__ w,
                                     const float* __restrict__ bias,
                                     float* __restrict__ y,
                                     int C_in, int H, int W,
                                     int C_out, int KH, int KW,
                                     int OH, int OW,
                                     int stride, int padding, int dilation) {
    extern __shared__ float w_s[];
    const int oc = blockIdx.y;
    const int n = blockIdx.z;
    const int filter_size = C_in * KH * KW;
    const float* w_oc = w + static_cast<int64_t>(oc) * filter_size;
    for (int i = threadIdx.x; i < filter_size; i += blockDim.x) {
        w_s[i] = w_oc[i];
    }
    __syncthreads();

    const int pix = blockIdx.x * blockDim.x + threadIdx.x;
    if (pix >= OH * OW) {
        return;
    }
    const int oh = pix / OW;
    const int ow = pix % OW;
    const int ih0 = oh * stride - padding;
    const int iw0 = ow * stride - padding;

    float acc = bias != nullptr ? bias[oc] : 0.f;
    const float* x_n = x + static_cast<int64_t>(n) * C_in * H * W;
    for (int ic = 0; ic < C_in; ++ic) {
        const float* x_c = x_n + static_cast<int64_t>(ic) * H * W;
        const float* w_c = w_s + ic * KH * KW;
        for (int kh = 0; kh < KH; ++kh) {
            const int ih = ih0 + kh * dilation;
            if (ih < 0 || ih >= H) {
                continue;
            }
            for (int kw = 0; kw < KW; ++kw) {
                const int iw = iw0 + kw * dilation;
                if (iw < 0 || iw >= W) {
                    continue;
                }
                acc = fmaf(x_c[ih * W + iw], w_c[kh * KW + kw], acc);
            }
        }
    }
    y[((static_cast<int64_t>(n) * C_out + oc) * OH + oh) * OW + ow] = acc;
}

torch::Tensor conv2d_direct(torch::Tensor x, torch::Tensor weight, c10::optional<torch::Tensor> bias,
                            int64_t stride, int64_t padding, int64_t dilation) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "conv2d_direct: x and weight must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32,
                "conv2d_direct: x and weight must be float32");
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "conv2d_direct: expected NCHW input and OIHW weight");
    TORCH_CHECK(x.is_contiguous() && weight.is_contiguous(), "conv2d_direct: inputs must be contiguous");
    TORCH_CHECK(x.size(1) == weight.size(1), "conv2d_direct: channel mismatch (groups must be 1)");
    TORCH_CHECK(stride >= 1 && dilation >= 1 && padding >= 0, "conv2d_direct: bad stride/padding/dilation");

    const float* bias_ptr = nullptr;
    if (bias.has_value()) {
        const torch::Tensor& b = bias.value();
        TORCH_CHECK(b.is_cuda() && b.scalar_type() == torch::kFloat32 && b.is_contiguous(),
                    "conv2d_direct: bias must be a contiguous float32 CUDA tensor");
        TORCH_CHECK(b.numel() == weight.size(0), "conv2d_direct: bias size must equal C_out");
        bias_ptr = b.data_ptr<float>();
    }

    const int N = x.size(0), C_in = x.size(1), H = x.size(2), W = x.size(3);
    const int C_out = weight.size(0), KH = weight.size(2), KW = weight.size(3);
    const int OH = (H + 2 * padding - dilation * (KH - 1) - 1) / stride + 1;
    const int OW = (W + 2 * padding - dilation * (KW - 1) - 1) / stride + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "conv2d_direct: output would be empty");

    const size_t smem = static_cast<size_t>(C_in) * KH * KW * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "conv2d_direct: filter does not fit in shared memory");

    auto y = torch::empty({N, C_out, OH, OW}, x.options());
    if (N == 0 || C_out == 0) {
        return y;
    }
    const dim3 grid((OH * OW + kConvThreads - 1) / kConvThreads, C_out, N);
    conv2d_direct_kernel<<<grid, kConvThreads, smem>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), bias_ptr, y.data_ptr<float>(),
        C_in, H, W, C_out, KH, KW, OH, OW,
        static_cast<int>(stride), static_cast<int>(padding), static_cast<int>(dilation));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

conv_ext = load_inline(
    name="kgate_honest_conv2d_direct",
    cpp_sources=conv_cpp_source,
    cuda_sources=conv_cuda_source,
    functions=["conv2d_direct"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, dilation, bias) with square kernels,
    parameters initialised the way nn.Conv2d does it, computed by conv2d_direct_kernel."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, bias: bool = False):
        super().__init__()
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.weight = nn.Parameter(torch.empty(out_channels, in_channels, kernel_size, kernel_size))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if bias:
            fan_in = in_channels * kernel_size * kernel_size
            bound = 1.0 / math.sqrt(fan_in)
            self.bias = nn.Parameter(torch.empty(out_channels).uniform_(-bound, bound))
        else:
            self.register_parameter("bias", None)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_ext.conv2d_direct(x.contiguous(), self.weight, self.bias,
                                      self.stride, self.padding, self.dilation)
