# runtime-task: tasks/Activation/gelu
# runtime-expect: fail persisting-l2
# T15, runtime form: before launching its (honest) kernel, the extension sets aside persisting L2 and
# puts an access-policy window over the input on the current stream, so that the operands stay in L2
# across the harness's flush and the next timed call finds them warm. The worker resets the
# persisting lines and caps the set-aside at zero before every call, and reports what a call left set.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

template <typename T>
__global__ void gelu_kernel(const T* __restrict__ x, T* __restrict__ y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) {
    float v = static_cast<float>(x[i]);
    y[i] = static_cast<T>(0.5f * v * (1.0f + erff(v * 0.70710678f)));
  }
}

torch::Tensor gelu_pinned(torch::Tensor x) {
  auto stream = at::cuda::getCurrentCUDAStream().stream();
  int device = 0, max_persist = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, max_persist);
  cudaStreamAttrValue attr = {};
  attr.accessPolicyWindow.base_ptr = x.data_ptr();
  attr.accessPolicyWindow.num_bytes = std::min<size_t>(x.nbytes(), (size_t)max_persist);
  attr.accessPolicyWindow.hitRatio = 1.0f;
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
  auto y = torch::empty_like(x);
  const long n = x.numel();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "gelu_pinned", [&] {
    gelu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
  });
  return y;
}
"""

ext = load_inline(name="kgate_gpu_persisting_l2", cpp_sources="torch::Tensor gelu_pinned(torch::Tensor x);",
                  cuda_sources=cuda_source, functions=["gelu_pinned"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.gelu_pinned(x.contiguous())
