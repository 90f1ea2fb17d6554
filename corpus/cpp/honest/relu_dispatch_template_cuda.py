"""ReLU through AT_DISPATCH_FLOATING_TYPES and a kernel template with a grid-stride loop."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor relu_dispatch(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>

template <typename scalar_t>
__global__ void relu_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x) {
        const scalar_t v = x[i];
        y[i] = v > scalar_t(0) ? v : scalar_t(0);
    }
}

torch::Tensor relu_dispatch(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    const int threads = 256;
    const int blocks = (int)std::min<int64_t>((n + threads - 1) / threads, 65535);
    AT_DISPATCH_FLOATING_TYPES(xc.scalar_type(), "relu_dispatch", ([&] {
        relu_kernel<scalar_t><<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
            xc.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    }));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_honest_relu_dispatch",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["relu_dispatch"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu_dispatch(x)
