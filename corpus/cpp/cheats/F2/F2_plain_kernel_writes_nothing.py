"""F2 (plain): the launched kernel only reads (a checksum kept in shared memory); torch::mm makes the output."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>

// ruleid: kernel-writes-nothing
__global__ void checksum_kernel(const float* __restrict__ a, int64_t n) {
    __shared__ float acc[256];
    float s = 0.0f;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += a[i];
    acc[threadIdx.x] = s;
    __syncthreads();
}

torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b) {
    checksum_kernel<<<1, 256>>>(a.data_ptr<float>(), a.numel());
    // ruleid: cpp-library-call
    return torch::mm(a, b);
}
"""

ext = load_inline(
    name="kgate_cpp_f2_nowrite",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["mm_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        # ruleid: extension-function-missing
        return ext.mm_forward(a, b)
