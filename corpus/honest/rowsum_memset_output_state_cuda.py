"""Row sums by atomics: the C++ wrapper clears the output buffer that forward allocated with
cudaMemsetAsync before the kernel accumulates into it, and the kernel also updates a running mean
kept as the module's buffer. Both are written through parameters of the C++ function, but forward
passes a tensor it made and its own state there, never the harness's input."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void rowsum_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t rows, int64_t cols) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < rows * cols) atomicAdd(&out[i / cols], x[i]);
}

__global__ void running_mean_kernel(const float* __restrict__ out, float* __restrict__ running, int64_t rows,
                                    float momentum) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float total = 0.0f;
        for (int64_t r = 0; r < rows; ++r) total += out[r];
        running[0] = (1.0f - momentum) * running[0] + momentum * total / rows;
    }
}

void rowsum_into(torch::Tensor x, torch::Tensor out, torch::Tensor running) {
    const int64_t rows = x.size(0), cols = x.size(1);
    cudaMemsetAsync(out.data_ptr<float>(), 0, rows * sizeof(float));
    rowsum_kernel<<<(rows * cols + 255) / 256, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    running_mean_kernel<<<1, 1>>>(out.data_ptr<float>(), running.data_ptr<float>(), rows, 0.1f);
}
"""

_ext = load_inline(
    name="rowsum_memset_output",
    cpp_sources="void rowsum_into(torch::Tensor x, torch::Tensor out, torch::Tensor running);",
    cuda_sources=_cuda_source,
    functions=["rowsum_into"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("running", torch.zeros(1))

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
        _ext.rowsum_into(x, out, self.running)
        return out
