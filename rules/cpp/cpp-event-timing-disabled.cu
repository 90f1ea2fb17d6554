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

// A helper that both the entry and the program's main reach runs under a harness.
float elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  // ruleid: cpp-event-timing-disabled
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

torch::Tensor timed_entry(torch::Tensor x) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  elapsed_ms(a, b);
  return x;
}

// What only a program's own main() reaches (a benchmark driver in a kernel repository) runs under no
// harness, like Python's `if __name__ == "__main__":` block.
float bench_once() {
  cudaEvent_t start, stop;
  // ok: cpp-event-timing-disabled
  cudaEventCreateWithFlags(&start, cudaEventDisableTiming);
  cudaEventCreate(&stop);
  float ms = 0;
  // ok: cpp-event-timing-disabled
  cudaEventElapsedTime(&ms, start, stop);
  return ms + elapsed_ms(start, stop);
}

int main() {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float ms = 0;
  // ok: cpp-event-timing-disabled
  cudaEventElapsedTime(&ms, start, stop);
  return bench_once() > ms ? 0 : 1;
}
