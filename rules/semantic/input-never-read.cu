// Fixture for input-never-read in C++: a LeetGPU-style extern "C" entry whose read-only input `bias`
// (a pointer to const) is never used: the output cannot depend on it.
#include <cuda_runtime.h>

__global__ void scale_kernel(const float* x, float* y, float alpha, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i];
}

// ruleid: input-never-read
extern "C" void solve(const float* x, const float* bias, float* output, float alpha, int N) {
  scale_kernel<<<(N + 255) / 256, 256>>>(x, output, alpha, N);
  cudaDeviceSynchronize();
}
