"""Fixture for extension-function-missing: the launch chain from forward must reach a writing kernel."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(
    name="kgate_fixture_links",
    cpp_sources="torch::Tensor good(torch::Tensor x); torch::Tensor dead(torch::Tensor x);",
    cuda_sources=r"""
#include <torch/extension.h>
__global__ void copy(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
torch::Tensor good(torch::Tensor x) {
    auto y = torch::empty_like(x);
    copy<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    return y;
}
torch::Tensor dead(torch::Tensor x) {
    auto y = torch::empty_like(x);
    if (0) copy<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    return y;
}
""",
    functions=["good", "dead", "absent"],
)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # ok: extension-function-missing
        a = ext.good(x)
        # ruleid: extension-function-missing
        b = ext.dead(a)
        # ruleid: extension-function-missing
        return ext.absent(b)
