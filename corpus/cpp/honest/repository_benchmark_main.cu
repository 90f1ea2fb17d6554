// Honest (repository): a kernel file of a kernel repository with its own benchmark driver. The
// launcher is the code a harness calls; main() is a standalone program that times the kernel with CUDA
// events and overlaps its input upload on a stream of its own. What only main() reaches runs as a
// program, never under a harness, like a Python file's `if __name__ == "__main__":` block.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale_kernel(const float* x, float* y, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i];
}

extern "C" void scale(const float* x, float* y, float alpha, int n) {
  const int threads = 256;
  scale_kernel<<<(n + threads - 1) / threads, threads>>>(x, y, alpha, n);
}

static float time_scale(const float* x, float* y, int n, int repeats) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int r = 0; r < repeats; ++r) scale(x, y, 2.0f, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / repeats;
}

int main() {
  const int n = 1 << 24;
  float *host = nullptr, *x = nullptr, *y = nullptr;
  cudaMallocHost(&host, n * sizeof(float));
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 7);
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaStream_t upload;
  cudaStreamCreateWithFlags(&upload, cudaStreamNonBlocking);
  cudaMemcpyAsync(x, host, n * sizeof(float), cudaMemcpyHostToDevice, upload);
  cudaStreamSynchronize(upload);
  const float ms = time_scale(x, y, n, 20);
  std::printf("scale: %.3f ms, %.1f GB/s\n", ms, 2.0 * n * sizeof(float) / (ms * 1e6));
  cudaStreamDestroy(upload);
  cudaFree(x);
  cudaFree(y);
  cudaFreeHost(host);
  return 0;
}
