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

// What only a program's own main() reaches (a benchmark driver in a kernel repository) runs under no
// harness, like Python's `if __name__ == "__main__":` block.
void overlap_copies(float* dst, const float* src, size_t n) {
  cudaStream_t copy_stream;
  // ok: cpp-side-stream
  cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking);
  cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice, copy_stream);
}

int main() {
  float *a = nullptr, *b = nullptr;
  cudaStream_t s;
  // ok: cpp-side-stream
  cudaStreamCreate(&s);
  overlap_copies(a, b, 16);
  return 0;
}
