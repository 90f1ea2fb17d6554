// Legacy GPU MODE layout (types in reference.cuh). The kernel runs, but the answer returned is the
// harness's own reference, which the header also defines: the submission hands its work to the
// checker's side (M8).
#include <cuda_runtime.h>

#include <array>
#include <vector>

#include "reference.cuh"

__global__ void square_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

output_t submission(input_t data) {
  const int n = Ns[0];
  float* d_in = nullptr;
  float* d_out = nullptr;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, data[0].data(), n * sizeof(float), cudaMemcpyHostToDevice);
  square_kernel<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  cudaDeviceSynchronize();
  cudaFree(d_in);
  cudaFree(d_out);
  // ruleid: imports-reference
  return reference(data);
}
