// Fixture for cpp-token-pasted-api: API names assembled with ##.
#include <torch/extension.h>
#define STREAM_API(a, b) cudaStream##a##b
#define GLUE(a, b) a##b
#define PLAIN(f) f

torch::Tensor entry(torch::Tensor x) {
  cudaStream_t s;
  // ruleid: cpp-token-pasted-api
  STREAM_API(Create, WithFlags)(&s, cudaStreamNonBlocking);
  // ruleid: cpp-token-pasted-api
  auto y = GLUE(mat, mul)(x, x);
  // ok: cpp-token-pasted-api
  PLAIN(cudaStreamSynchronize)(s);
  return y;
}
