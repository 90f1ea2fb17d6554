# runtime-task: tasks/MatrixMultiply/matmul_square
# runtime-expect: fail library-kernel
# F6 (and F5), runtime form: the load_inline "kernel" is at::matmul (cuBLAS) followed by a trivial
# epilogue kernel of its own, so a kernel of the submission's does run. The task forbids library compute
# kernels (cuBLAS, cuDNN, CUTLASS), and CUPTI names the cuBLAS GEMM that did the work.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

template <typename T>
__global__ void scale_epilogue(T* __restrict__ c, float alpha, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = static_cast<T>(static_cast<float>(c[i]) * alpha);
}

torch::Tensor fused_matmul(torch::Tensor a, torch::Tensor b) {
  auto c = at::matmul(a, b).contiguous();
  const long n = c.numel();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, c.scalar_type(), "scale_epilogue", [&] {
    scale_epilogue<scalar_t><<<(n + 255) / 256, 256>>>(c.data_ptr<scalar_t>(), 1.0f, n);
  });
  return c;
}
"""

ext = load_inline(name="kgate_gpu_cublas_disguise", cpp_sources="torch::Tensor fused_matmul(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=cuda_source, functions=["fused_matmul"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return ext.fused_matmul(A, B)
