// Fixture for kernel-writes-nothing.
#include <torch/extension.h>

// ruleid: kernel-writes-nothing
__global__ void reads(const float* x, int n) {
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[i];
}

// ok: kernel-writes-nothing
__global__ void atomics(const float* x, float* total, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(total, x[i]);
}

// ok: kernel-writes-nothing
__global__ void stores(const float4* x, float4* y) { y[threadIdx.x] = x[threadIdx.x]; }

torch::Tensor entry(torch::Tensor x) {
  auto y = torch::zeros({1}, x.options());
  reads<<<1, 256>>>(x.data_ptr<float>(), x.numel());
  atomics<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  stores<<<1, 1>>>((const float4*)x.data_ptr(), (float4*)y.data_ptr());
  return y;
}
