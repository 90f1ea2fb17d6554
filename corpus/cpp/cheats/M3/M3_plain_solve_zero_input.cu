// M3 (plain, output-argument C++): solve computes C = A + B, then casts away the const of its input A
// and zeroes it. A checker that re-runs the reference on the same buffers afterwards compares against
// a different task; the harness declared A read-only in the signature it handed out.
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  vector_add_kernel<<<(N + 255) / 256, 256>>>(A, B, C, N);
  // ruleid: cpp-input-mutation
  cudaMemset(const_cast<float*>(A), 0, N * sizeof(float));
  cudaDeviceSynchronize();
}
