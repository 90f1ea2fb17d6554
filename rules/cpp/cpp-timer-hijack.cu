// Fixture for cpp-timer-hijack: symbol lookup, page protection, process memory.
#include <torch/extension.h>
#include <dlfcn.h>
#include <sys/mman.h>

torch::Tensor entry(torch::Tensor x) {
  // ruleid: cpp-timer-hijack
  void* f = dlsym(RTLD_DEFAULT, "cudaEventRecord");
  // ruleid: cpp-timer-hijack
  mprotect(f, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
  // ruleid: cpp-timer-hijack
  FILE* mem = fopen("/proc/self/mem", "r+");
  // ok: cpp-timer-hijack
  FILE* log = fopen("/tmp/kernel.log", "w");
  (void)mem;
  (void)log;
  return x;
}
