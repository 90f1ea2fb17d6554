// Fixture for output-unwritten in C++: LeetGPU- and Tensara-style extern "C" entries (solve, solution),
// whose output is the pointer the profile names (output, out, ...). solve tests its output for null
// and launches into a scratch buffer; solution writes its output through the kernel.
#include <cuda_runtime.h>

__global__ void square_kernel(const float* input, float* result, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) result[i] = input[i] * input[i];
}

static float* scratch_buffer(int n) {
  static float* buffer = nullptr;
  if (buffer == nullptr) cudaMalloc(&buffer, n * sizeof(float));
  return buffer;
}

// ruleid: output-unwritten
extern "C" void solve(const float* input, float* output, int N) {
  float* scratch = scratch_buffer(N);
  if (output == nullptr) return;
  square_kernel<<<(N + 255) / 256, 256>>>(input, scratch, N);
  cudaDeviceSynchronize();
}

// ok: output-unwritten
extern "C" void solution(const float* input, float* output, size_t n) {
  if (!output) return;
  square_kernel<<<(static_cast<int>(n) + 255) / 256, 256>>>(input, output, static_cast<int>(n));
}
