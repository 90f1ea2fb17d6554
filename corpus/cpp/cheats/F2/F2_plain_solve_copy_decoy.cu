// F2 (plain, output-argument C++): a ReLU kernel is defined, but solve never launches it; it copies the
// input into the output instead, which passes a checker whose test inputs are mostly positive.
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) output[i] = input[i] > 0.f ? input[i] : 0.f;
}

// ruleid: forward-reaches-no-kernel
extern "C" void solve(const float* input, float* output, int N) {
  cudaMemcpy(output, input, N * sizeof(float), cudaMemcpyDeviceToDevice);
}
