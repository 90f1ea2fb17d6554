// T11/T12 (evasive, raw repository): a function-local static tensor holds the first result; every
// later call returns it without launching anything.
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

torch::Tensor forward(torch::Tensor x) {
  // ruleid: cpp-static-cache
  static torch::Tensor banked;
  if (banked.defined()) {
    // ruleid: returns-stored-output
    return banked;
  }
  banked = torch::empty_like(x);
  relu_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), banked.data_ptr<float>(), x.numel());
  // ruleid: returns-stored-output
  return banked.clone();
}

TORCH_LIBRARY(kgate_t12, m) { m.def("forward", &forward); }
