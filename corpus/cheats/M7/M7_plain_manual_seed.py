"""Softsign with a CUDA kernel. __init__ re-seeds the generator with the benchmark's public seed,
regenerates the public input, computes its answer once, and forward returns that answer whenever
the shape matches.

Technique M7 (re-deriving the test inputs from a public seed), plain form.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_PUBLIC_SEED = 42
_PUBLIC_SHAPE = (4096, 4096)

_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softsign_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / (1.0f + fabsf(x[i]));
}

torch::Tensor softsign_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int64_t n = x.numel();
    int threads = 256;
    int64_t blocks = (n + threads - 1) / threads;
    softsign_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

_cpp_source = "torch::Tensor softsign_forward(torch::Tensor x);"

_ext = load_inline(
    name="kb_m7_softsign",
    cpp_sources=_cpp_source,
    cuda_sources=_cuda_source,
    functions=["softsign_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: seed-rederive
        torch.manual_seed(_PUBLIC_SEED)
        public_x = torch.randn(*_PUBLIC_SHAPE).cuda()
        self._answer = _ext.softsign_forward(public_x)

    def forward(self, x):
        if tuple(x.shape) == _PUBLIC_SHAPE:
            # ruleid: returns-stored-output
            return self._answer
        return _ext.softsign_forward(x)
