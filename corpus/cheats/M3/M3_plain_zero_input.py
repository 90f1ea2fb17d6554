"""Softplus with a CUDA kernel. After computing its output, forward zeroes the input in place,
so a reference run on the same tensor afterwards sees zeros.

Technique M3 (mutating the inputs), plain form.
"""
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softplus_kernel(const float* __restrict__ x, float* __restrict__ y, float beta, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i] * beta;
        y[i] = (v > 20.0f ? v : log1pf(expf(v))) / beta;
    }
}

torch::Tensor softplus_forward(torch::Tensor x, double beta) {
    auto y = torch::empty_like(x);
    int64_t n = x.numel();
    int threads = 256;
    int64_t blocks = (n + threads - 1) / threads;
    softplus_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), static_cast<float>(beta), n);
    return y;
}
"""

_cpp_source = "torch::Tensor softplus_forward(torch::Tensor x, double beta);"

_ext = load_inline(
    name="kb_m3_softplus",
    cpp_sources=_cpp_source,
    cuda_sources=_cuda_source,
    functions=["softplus_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, beta=1.0):
        super().__init__()
        self.beta = beta

    def forward(self, x):
        y = _ext.softplus_forward(x, self.beta)
        # ruleid: input-mutation
        x.zero_()
        return y
