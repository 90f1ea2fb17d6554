"""T15 (plain): reserves persisting L2 and pins the input with an access-policy window before launching."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor relu_forward(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    // ruleid: cpp-persisting-l2
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 32 << 20);
    cudaStreamAttrValue attr = {};
    // ruleid: cpp-persisting-l2
    attr.accessPolicyWindow.base_ptr = x.data_ptr();
    // ruleid: cpp-persisting-l2
    attr.accessPolicyWindow.num_bytes = x.nbytes();
    // ruleid: cpp-persisting-l2
    attr.accessPolicyWindow.hitRatio = 1.0f;
    // ruleid: cpp-persisting-l2
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    // ruleid: cpp-persisting-l2
    cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
    relu_kernel<<<(x.numel() + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_t15_l2",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu_forward(x)
