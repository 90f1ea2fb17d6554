"""F6 (evasive): a namespace alias and a using-declaration rename torch::mm; a template helper calls it."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);
"""

cuda_source = r"""
#include <torch/extension.h>
namespace tt = torch;
using tt::mm;

template <typename T>
T product(const T& x, const T& y) {
    // ruleid: cpp-library-call
    return mm(x, y);
}

// The store writes back what it read: compiled away, as the PTX shows.
// ruleid: ptx-kernel-stores-nothing
__global__ void touch_kernel(float* __restrict__ y) {
    if (threadIdx.x == 0) y[0] = y[0];
}

torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b) {
    auto c = product(a, b);
    touch_kernel<<<1, 32>>>(c.data_ptr<float>());
    return c;
}
"""

ext = load_inline(
    name="kgate_cpp_f6_alias",
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
        return ext.mm_forward(a, b)
