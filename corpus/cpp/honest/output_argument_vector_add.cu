// Output-argument CUDA submission (LeetGPU style): the harness compiles this file into a shared
// library, loads it with ctypes and calls solve(A, B, C, N) on device buffers; C is the output it
// reads back. A grid-stride loop covers any N with one launch.
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ c, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

// A, B, C are device pointers.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 4096) blocks = 4096;
  vector_add_kernel<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
