// Fixture for cpp-event-timing-disabled.
#include <torch/extension.h>

torch::Tensor entry(torch::Tensor x) {
  cudaEvent_t a, b;
  // ruleid: cpp-event-timing-disabled
  cudaEventCreateWithFlags(&a, cudaEventDisableTiming);
  // ok: cpp-event-timing-disabled
  cudaEventCreateWithFlags(&b, cudaEventBlockingSync);
  float ms = 0;
  // ruleid: cpp-event-timing-disabled
  cudaEventElapsedTime(&ms, a, b);
  return x;
}
