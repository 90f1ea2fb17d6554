"""F2 (evasive): the kernel's source stores its result, but under a bounds macro that can never hold, so the
compiler removes the store; the launch is a decoy and the output is the clone of the input, clamped by
ATen. The source reading sees a kernel that writes through its output pointer; the PTX does not."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor relu_forward(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>
#define IN_BOUNDS(i, n) ((i) < (n) && (i) >= (n))

// ruleid: ptx-kernel-stores-nothing
__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (IN_BOUNDS(i, n)) y[i] = fmaxf(x[i], 0.0f);
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = x.clone();
    const int64_t n = y.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    // ruleid: cpp-library-call
    return y.clamp_min(0.0f);
}
"""

ext = load_inline(
    name="kgate_cpp_f2_store_compiled_away",
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
