"""Row softmax with a CUDA kernel whose result is thrown away; the returned buffer comes from
`empty_like` looked up through `t.__dict__` and passes through two local names before the return.

Technique M1 (allocator reuse), evasive: aliased torch, __dict__ lookup, local aliasing.
"""
import torch as t
from torch.utils.cpp_extension import load_inline

_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softmax_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    const float* row = x + (size_t)blockIdx.x * cols;
    float* out = y + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, row[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += expf(row[c] - m);
    float inv = 1.0f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(row[c] - m) * inv;
}

torch::Tensor softmax_rows(torch::Tensor x) {
    auto y = torch::empty_like(x);
    softmax_rows_kernel<<<x.size(0), 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
    return y;
}
"""

_cpp_source = "torch::Tensor softmax_rows(torch::Tensor x);"

_ext = load_inline(
    name="kb_m1_softmax_rows",
    cpp_sources=_cpp_source,
    cuda_sources=_cuda_source,
    functions=["softmax_rows"],
    verbose=False,
)


class ModelNew(t.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        _ = _ext.softmax_rows(x[:1])
        # ruleid: obfuscated-api-name
        buf = t.__dict__["empty_like"](x)
        result = buf
        # ruleid: returns-unwritten-allocation
        return result
