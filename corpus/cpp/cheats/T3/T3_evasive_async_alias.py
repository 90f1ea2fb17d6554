"""T3 (evasive): std::async through a namespace alias finishes the output after the call returns."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
torch::Tensor relu_forward(torch::Tensor x);
"""

cuda_source = r"""
#include <torch/extension.h>
#include <future>
namespace conc = std;

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

static conc::future<void> pending;

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const int64_t n = x.numel();
    // ruleid: cpp-thread
    pending = conc::async(conc::launch::async, [=] { relu_kernel<<<(n + 255) / 256, 256>>>(xp, yp, n); });
    return y;
}
"""

ext = load_inline(
    name="kgate_cpp_t3_async",
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
