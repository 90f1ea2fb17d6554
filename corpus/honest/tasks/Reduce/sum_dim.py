# runtime-task: tasks/Reduce/sum_dim
# runtime-expect: pass
"""y = sum(x, dim=1) for x [B, N, D]: a CUDA block owns 32 consecutive columns of one batch; 16 rows of threads
stride over N with coalesced loads and compensated fp32 partial sums, then a shared-memory tree combines them."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_cpp_source = "torch::Tensor sum_middle(torch::Tensor x);"

sum_cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cstdint>

constexpr int kCols = 32;   // threadIdx.x: consecutive columns d, so a warp reads 32 consecutive elements
constexpr int kRows = 16;   // threadIdx.y: rows n = ty, ty + 16, ...

template <typename T>
__global__ void __launch_bounds__(kCols * kRows)
sum_middle_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t N, int64_t D) {
    __shared__ float partial[kRows][kCols + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int64_t b = blockIdx.y;
    const int64_t d = static_cast<int64_t>(blockIdx.x) * kCols + tx;

    // Kahan-compensated: a thread may add thousands of terms, and fp32 rounding must not grow with N.
    float acc = 0.f, carry = 0.f;
    if (d < D) {
        const T* col = x + b * N * D + d;
        for (int64_t n = ty; n < N; n += kRows) {
            const float term = static_cast<float>(col[n * D]) - carry;
            const float next = acc + term;
            carry = (next - acc) - term;
            acc = next;
        }
    }
    partial[ty][tx] = acc;
    __syncthreads();
    #pragma unroll
    for (int half = kRows / 2; half > 0; half >>= 1) {
        if (ty < half) partial[ty][tx] += partial[ty + half][tx];
        __syncthreads();
    }
    if (ty == 0 && d < D) y[b * D + d] = static_cast<T>(partial[0][tx]);
}

template <typename T>
void launch_sum(const torch::Tensor& x, torch::Tensor& y) {
    const int64_t B = x.size(0), N = x.size(1), D = x.size(2);
    const dim3 grid(static_cast<unsigned>((D + kCols - 1) / kCols), static_cast<unsigned>(B));
    const dim3 block(kCols, kRows);
    sum_middle_kernel<T><<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<T>(), y.data_ptr<T>(), N, D);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

torch::Tensor sum_middle(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 3 && x.is_contiguous(), "sum_middle: a contiguous CUDA [B, N, D] tensor expected");
    TORCH_CHECK(x.size(0) <= 65535, "sum_middle: at most 65535 batches");
    auto y = torch::empty({x.size(0), x.size(2)}, x.options());
    if (y.numel() == 0) {
        return y;
    }
    switch (x.scalar_type()) {
        case torch::kFloat32: launch_sum<float>(x, y); break;
        case torch::kFloat16: launch_sum<at::Half>(x, y); break;
        case torch::kBFloat16: launch_sum<at::BFloat16>(x, y); break;
        default: TORCH_CHECK(false, "sum_middle: float32, float16 or bfloat16 expected, got ", x.scalar_type());
    }
    return y;
}
"""

sum_ext = load_inline(
    name="kgate_honest_task_sum_dim",
    cpp_sources=sum_cpp_source,
    cuda_sources=sum_cuda_source,
    functions=["sum_middle"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """torch.sum(x, dim=1) for a [B, N, D] tensor, computed by sum_middle_kernel."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_ext.sum_middle(x.contiguous())
