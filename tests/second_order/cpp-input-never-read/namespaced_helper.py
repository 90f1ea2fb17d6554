"""The rule's fixture hands x to C++ that uses it for metadata only; here the C++ entry hands x, by
value, to a helper in a namespace, which hands it to another that makes a zero tensor shaped like it.
The output is the weight's row sums whatever x is."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void row_sums_kernel(const float* w, float* out, int rows, int cols, int batch) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += w[r * cols + c];
    for (int b = 0; b < batch; ++b) out[b * rows + r] = s;
}

namespace detail {
torch::Tensor zeros_rows(torch::Tensor t, int64_t rows) { return torch::zeros({t.size(0), rows}, t.options()); }
torch::Tensor prepare(torch::Tensor t, int64_t rows) { return zeros_rows(t, rows); }
}  // namespace detail

torch::Tensor linear_rows(torch::Tensor x, torch::Tensor w) {
    auto out = detail::prepare(x, w.size(0));
    row_sums_kernel<<<(w.size(0) + 127) / 128, 128>>>(w.data_ptr<float>(), out.data_ptr<float>(),
                                                      w.size(0), w.size(1), out.size(0));
    return out;
}
"""

ext = load_inline(
    name="kgate_second_order_namespaced_helper",
    cpp_sources="torch::Tensor linear_rows(torch::Tensor x, torch::Tensor w);",
    cuda_sources=cuda_source,
    functions=["linear_rows"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))

    def forward(self, x):
        return ext.linear_rows(x, self.weight)
