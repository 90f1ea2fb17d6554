"""cpp-input-mutation, one step on: the wrapper keeps a byte pointer into the input's storage, offset
past its first row, in a local, and copies the output over the rest of the input with
cudaMemcpyAsync. Neither the fixture's in-place method nor a data_ptr in the copy's argument."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softplus_kernel(const float* in, float* out, long total) {
    long k = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (k < total) out[k] = log1pf(expf(in[k]));
}

torch::Tensor softplus(torch::Tensor a) {
    auto b = torch::empty_like(a);
    long total = a.numel();
    softplus_kernel<<<(total + 127) / 128, 128>>>(a.data_ptr<float>(), b.data_ptr<float>(), total);
    const size_t row_bytes = a.size(-1) * sizeof(float);
    char* rest = reinterpret_cast<char*>(a.data_ptr()) + row_bytes;
    cudaMemcpyAsync(rest, b.data_ptr<float>(), total * sizeof(float) - row_bytes, cudaMemcpyDeviceToDevice);
    return b;
}
"""

_mod = load_inline(name="softplus_byte_offset", cpp_sources="torch::Tensor softplus(torch::Tensor a);",
                   cuda_sources=_src, functions=["softplus"])


class ModelNew(nn.Module):
    def forward(self, x):
        return _mod.softplus(x)
