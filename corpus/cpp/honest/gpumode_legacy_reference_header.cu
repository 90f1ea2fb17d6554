// GPU MODE's first CUDA problems kept the task's types (input_t, output_t, N_SIZES, Ns) in the
// harness's reference.cuh, next to its generator and checker, and called `submission(data)`. A
// submission included that header for the types; it must not call the reference's functions.
#include <cuda_runtime.h>

#include <array>
#include <vector>

#include "reference.cuh"

__global__ void square_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

output_t submission(input_t data) {
  output_t result;
  for (int s = 0; s < N_SIZES; ++s) {
    const int n = Ns[s];
    result[s].resize(n);
    float* d_in = nullptr;
    float* d_out = nullptr;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, data[s].data(), n * sizeof(float), cudaMemcpyHostToDevice);
    square_kernel<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
    cudaMemcpy(result[s].data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_out);
  }
  return result;
}
