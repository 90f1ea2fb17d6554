"""F6 (evasive): the kernel is the submission's, but its arithmetic is a device function it only declares,
linked from a prebuilt device library (relocatable device code and -l on the link line). Nothing in the
source says what that function computes; the PTX shows a call to an .extern .func."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor gelu_forward(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>

extern __device__ float vendor_gelu(float x);

// ruleid: ptx-external-device-call
__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = vendor_gelu(x[i]);
}

torch::Tensor gelu_forward(torch::Tensor x) {
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t n = xc.numel();
    gelu_kernel<<<(n + 255) / 256, 256>>>(xc.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_extern_device",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gelu_forward"],
    extra_cuda_cflags=["-O3", "-rdc=true"],
    extra_ldflags=["-L/opt/vendor/lib", "-lvendor_device"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.gelu_forward(x)
