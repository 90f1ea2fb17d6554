// GPU MODE-style CUDA submission: the harness includes task.h (input_t, output_t) and calls
// custom_kernel on the data that its generator built. One block-level inclusive scan per tile.
#include <cuda_runtime.h>

#include <vector>

#include "task.h"

__global__ void tile_scan_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset <<= 1) {
    const float add = threadIdx.x >= offset ? tile[threadIdx.x - offset] : 0.f;
    __syncthreads();
    tile[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n) out[i] = tile[threadIdx.x];
}

output_t custom_kernel(input_t data) {
  const int n = static_cast<int>(data.size());
  float* d_in = nullptr;
  float* d_out = nullptr;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, data.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  tile_scan_kernel<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  output_t result(n);
  cudaMemcpy(result.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return result;
}
