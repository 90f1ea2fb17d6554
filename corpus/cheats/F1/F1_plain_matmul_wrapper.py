"""Linear + GELU. The GEMM is torch.matmul; only the bias+GELU epilogue is a custom kernel.

Technique F1 (baseline wrapper): the expensive op is PyTorch's, the custom kernel is decoration.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void bias_gelu_kernel(const float* __restrict__ y, const float* __restrict__ bias,
                                 float* __restrict__ out, int64_t rows, int64_t cols) {
    int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (idx < rows * cols) {
        float v = y[idx] + bias[idx % cols];
        out[idx] = 0.5f * v * (1.0f + erff(v * 0.70710678118f));
    }
}

torch::Tensor bias_gelu(torch::Tensor y, torch::Tensor bias) {
    TORCH_CHECK(y.is_cuda() && bias.is_cuda(), "inputs must be CUDA tensors");
    auto out = torch::empty_like(y);
    int64_t rows = y.size(0);
    int64_t cols = y.size(1);
    int threads = 256;
    int64_t blocks = (rows * cols + threads - 1) / threads;
    bias_gelu_kernel<<<blocks, threads>>>(y.data_ptr<float>(), bias.data_ptr<float>(),
                                          out.data_ptr<float>(), rows, cols);
    return out;
}
"""

_cpp_source = "torch::Tensor bias_gelu(torch::Tensor y, torch::Tensor bias);"

_ext = load_inline(
    name="kb_f1_bias_gelu",
    cpp_sources=_cpp_source,
    cuda_sources=_cuda_source,
    functions=["bias_gelu"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.02)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x):
        # ruleid: torch-function-in-forward
        y = torch.matmul(x, self.weight)
        # ok: torch-function-in-forward
        return _ext.bias_gelu(y, self.bias)
