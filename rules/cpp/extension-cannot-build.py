# Fixture for extension-cannot-build: load_inline calls whose generated binding cannot compile.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda = r"""
#include <torch/extension.h>
__global__ void scale_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
torch::Tensor scale(torch::Tensor x) {
  auto y = torch::empty_like(x);
  int n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
"""

_cuda_with_module = _cuda + r"""
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale", &scale); }
"""

# cpp_sources declares nothing, so the generated `m.def("scale", &scale)` does not compile.
# ruleid: extension-cannot-build
_undeclared = load_inline(name="undeclared", cpp_sources="", cuda_sources=_cuda, functions=["scale"])

# The sources bring their own PYBIND11_MODULE and functions= generates a second one.
# ruleid: extension-cannot-build
_twice = load_inline(name="twice", cpp_sources="torch::Tensor scale(torch::Tensor x);",
                     cuda_sources=_cuda_with_module, functions=["scale"])

# ok: extension-cannot-build
_good = load_inline(name="good", cpp_sources="torch::Tensor scale(torch::Tensor x);", cuda_sources=_cuda,
                    functions=["scale"])

# Its own module and no functions=: nothing is generated.
# ok: extension-cannot-build
_own = load_inline(name="own", cpp_sources="", cuda_sources=_cuda_with_module)


class ModelNew(nn.Module):
    def forward(self, x):
        try:
            return _undeclared.scale(x) + _twice.scale(x) + _own.scale(x)
        except RuntimeError:
            return _good.scale(x)
