"""F6 (plain): the convolution runs in cuDNN; a ReLU kernel afterwards is the only custom code."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor conv_relu(torch::Tensor x, torch::Tensor w);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <cudnn.h>

__global__ void relu_inplace(float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(y[i], 0.0f);
}

torch::Tensor conv_relu(torch::Tensor x, torch::Tensor w) {
    cudnnHandle_t h;
    cudnnCreate(&h);
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    cudnnCreateTensorDescriptor(&xd);
    cudnnCreateTensorDescriptor(&yd);
    cudnnCreateFilterDescriptor(&wd);
    cudnnCreateConvolutionDescriptor(&cd);
    auto y = torch::empty({x.size(0), w.size(0), x.size(2) - w.size(2) + 1, x.size(3) - w.size(3) + 1}, x.options());
    const float alpha = 1.0f, beta = 0.0f;
    // ruleid: cpp-library-call
    cudnnConvolutionForward(h, &alpha, xd, x.data_ptr<float>(), wd, w.data_ptr<float>(), cd,
                            CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, nullptr, 0, &beta, yd, y.data_ptr<float>());
    relu_inplace<<<(y.numel() + 255) / 256, 256>>>(y.data_ptr<float>(), y.numel());
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_cudnn",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["conv_relu"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.conv_relu(x, self.weight)
