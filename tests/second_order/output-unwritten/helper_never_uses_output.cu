// One step past the C++ output-unwritten fixture: solve hands its output pointer to a launch helper of
// the file, which checks it for null and then launches into a workspace instead.
#include <cuda_runtime.h>

__global__ void exp_kernel(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = expf(x[i]);
}

static float* workspace(int n) {
  static float* buffer = nullptr;
  if (buffer == nullptr) cudaMalloc(&buffer, n * sizeof(float));
  return buffer;
}

static void launch_exp(const float* input, float* output, int n) {
  if (output == nullptr) return;
  exp_kernel<<<(n + 255) / 256, 256>>>(input, workspace(n), n);
}

extern "C" void solve(const float* input, float* output, int N) {
  launch_exp(input, output, N);
  cudaDeviceSynchronize();
}
