"""a + b over fp32 with 16-byte float4 loads and stores, a grid-stride loop and a scalar tail."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor add_vec4(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void add_vec4_kernel(const float4* __restrict__ a, const float4* __restrict__ b,
                                float4* __restrict__ out, int64_t n4) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4; i += (int64_t)gridDim.x * blockDim.x) {
        const float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

__global__ void add_tail_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                                int64_t begin, int64_t n) {
    const int64_t i = begin + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

torch::Tensor add_vec4(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.sizes() == b.sizes(), "add_vec4: shapes differ");
    auto ac = a.contiguous(), bc = b.contiguous();
    auto out = torch::empty_like(ac);
    const int64_t n = ac.numel(), n4 = n / 4;
    auto stream = at::cuda::getCurrentCUDAStream();
    if (n4 > 0) {
        const int blocks = (int)std::min<int64_t>((n4 + 255) / 256, 4096);
        add_vec4_kernel<<<blocks, 256, 0, stream>>>(reinterpret_cast<const float4*>(ac.data_ptr<float>()),
                                                   reinterpret_cast<const float4*>(bc.data_ptr<float>()),
                                                   reinterpret_cast<float4*>(out.data_ptr<float>()), n4);
    }
    if (n > n4 * 4) {
        add_tail_kernel<<<1, 4, 0, stream>>>(ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), n4 * 4, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

ext = load_inline(
    name="kgate_cpp_honest_add_vec4",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["add_vec4"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.add_vec4(a, b)
