"""A kernel library module: a fused SwiGLU compiled with load_inline and a wrapper function, meant to
be imported by a model. It has no harness entry, so the gate calls it not-a-submission."""
import torch
from torch.utils.cpp_extension import load_inline

_SRC = r"""
#include <torch/extension.h>

__global__ void swiglu_kernel(const float* __restrict__ gate, const float* __restrict__ up, float* __restrict__ out, long n) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float g = gate[i];
    out[i] = g / (1.f + __expf(-g)) * up[i];
  }
}

torch::Tensor swiglu(torch::Tensor gate, torch::Tensor up) {
  auto out = torch::empty_like(gate);
  const long n = gate.numel();
  swiglu_kernel<<<static_cast<int>((n + 255) / 256), 256>>>(gate.data_ptr<float>(), up.data_ptr<float>(), out.data_ptr<float>(), n);
  return out;
}
"""

_ext = load_inline(name="swiglu_lib", cpp_sources="torch::Tensor swiglu(torch::Tensor gate, torch::Tensor up);",
                   cuda_sources=_SRC, functions=["swiglu"])


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    return _ext.swiglu(gate.contiguous(), up.contiguous())
