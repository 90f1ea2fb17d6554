// Fixture for cpp-side-stream: streams other than PyTorch's current one.
#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>

torch::Tensor entry(torch::Tensor x) {
  cudaStream_t s;
  // ruleid: cpp-side-stream
  cudaStreamCreate(&s);
  // ruleid: cpp-side-stream
  auto pooled = at::cuda::getStreamFromPool();
  // ruleid: cpp-side-stream
  c10::cuda::CUDAStreamGuard guard(pooled);
  // ruleid: cpp-side-stream
  cudaMemcpyAsync(x.data_ptr(), x.data_ptr(), 4, cudaMemcpyDeviceToDevice, cudaStreamPerThread);
  // ok: cpp-side-stream
  auto current = at::cuda::getCurrentCUDAStream();
  return x;
}
