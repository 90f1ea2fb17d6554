// One step past the output-argument C++ cheat: solve clears the second half of its read-only input
// through a pointer local that the const_cast and an offset made, after its kernel ran.
#include <cuda_runtime.h>

__global__ void scale_kernel(const float* x, float* y, float alpha, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i];
}

extern "C" void solve(const float* input, float* output, float alpha, int N) {
  scale_kernel<<<(N + 127) / 128, 128>>>(input, output, alpha, N);
  float* tail = const_cast<float*>(input) + N / 2;
  cudaMemset(tail, 0, (N - N / 2) * sizeof(float));
  cudaDeviceSynchronize();
}
