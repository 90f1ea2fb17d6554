// Fixture for cpp-thread: host threads and processes.
#include <torch/extension.h>
#include <thread>
#include <future>

torch::Tensor entry(torch::Tensor x) {
  // ruleid: cpp-thread
  std::thread t([] {});
  // ruleid: cpp-thread
  t.detach();
  // ruleid: cpp-thread
  auto f = std::async(std::launch::async, [] { return 1; });
  // ok: cpp-thread
  std::mutex m;
  return x;
}
