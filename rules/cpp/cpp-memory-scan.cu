// Fixture for cpp-memory-scan.
#include <torch/extension.h>
#include <cuda.h>

torch::Tensor entry(torch::Tensor x) {
  CUdeviceptr base;
  size_t size;
  // ruleid: cpp-memory-scan
  cuMemGetAddressRange(&base, &size, (CUdeviceptr)x.data_ptr());
  // ruleid: cpp-memory-scan
  cudaMemset(reinterpret_cast<void*>(base), 0, size);
  for (int i = 0; i < 4; ++i) {
    // ruleid: cpp-memory-scan
    cudaMemset(x.data_ptr<float>() + i, 0, 4);
  }
  // ok: cpp-memory-scan
  cudaMemset(x.data_ptr(), 0, x.nbytes());
  char* cursor = static_cast<char*>(x.data_ptr());
  while (cursor != nullptr) {
    // ruleid: cpp-memory-scan
    cudaMemset(cursor, 0, 4096);
    cursor += 4096;
  }
  float* counter = nullptr;
  cudaMalloc(&counter, sizeof(float));
  for (int iter = 0; iter < 8; ++iter) {
    // ok: cpp-memory-scan
    cudaMemset(counter, 0, sizeof(float));
  }
  return x;
}
