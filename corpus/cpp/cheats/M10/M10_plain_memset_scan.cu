// M10 (plain, raw repository): walks device allocations with cuMemGetAddressRange and clears whatever
// it finds (the checker's reference outputs included) with cudaMemset on integer-built addresses.
#include <torch/extension.h>
#include <cuda.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

torch::Tensor forward(torch::Tensor x) {
  auto y = torch::empty_like(x);
  relu_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  CUdeviceptr probe = reinterpret_cast<CUdeviceptr>(y.data_ptr());
  for (int step = 1; step < 64; ++step) {
    CUdeviceptr base = 0;
    size_t size = 0;
    // ruleid: cpp-memory-scan
    if (cuMemGetAddressRange(&base, &size, probe + step * (size_t(1) << 20)) == CUDA_SUCCESS) {
      // ruleid: cpp-memory-scan
      cudaMemset(reinterpret_cast<void*>(base), 0, size);
    }
  }
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward); }
