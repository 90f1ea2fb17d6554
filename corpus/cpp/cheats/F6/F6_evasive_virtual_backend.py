"""F6 (evasive): a virtual "backend" interface; the entry holds the library backend.

Two classes implement the interface: one launches the submission's kernel, the other calls
at::softmax. The entry calls through a base-class reference, so no line of it names the library.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor softmax_forward(torch::Tensor x);"

cuda_source = r"""
#include <torch/extension.h>

__global__ void row_softmax_kernel(const float* x, float* y, int rows, int cols) {
    const int r = blockIdx.x;
    if (r >= rows || threadIdx.x != 0) return;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, x[r * cols + c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += __expf(x[r * cols + c] - m);
    for (int c = 0; c < cols; ++c) y[r * cols + c] = __expf(x[r * cols + c] - m) / s;
}

struct SoftmaxBackend {
    virtual at::Tensor run(const at::Tensor& x) const = 0;
};

struct KernelBackend : SoftmaxBackend {
    at::Tensor run(const at::Tensor& x) const {
        auto y = torch::empty_like(x);
        const int rows = static_cast<int>(x.size(0));
        const int cols = static_cast<int>(x.size(1));
        row_softmax_kernel<<<rows, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
        return y;
    }
};

struct TunedBackend : SoftmaxBackend {
    at::Tensor run(const at::Tensor& x) const {
        // ruleid: cpp-library-call
        return at::softmax(x, 1);
    }
};

torch::Tensor softmax_forward(torch::Tensor x) {
    static KernelBackend kernel;
    static TunedBackend tuned;
    const SoftmaxBackend* backend = &kernel;
    if (x.size(1) > 64) backend = &tuned;
    return backend->run(x.contiguous());
}
"""

ext = load_inline(
    name="kgate_cpp_f6_virtual_backend",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["softmax_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.softmax_forward(x)
