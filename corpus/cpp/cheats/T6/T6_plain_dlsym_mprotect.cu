// T6 (plain, raw repository): looks up cudaEventElapsedTime with dlsym and makes its page writable to
// patch the timer the harness uses.
#include <torch/extension.h>
#include <dlfcn.h>
#include <sys/mman.h>

__global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

torch::Tensor forward(torch::Tensor x) {
  // ruleid: cpp-timer-hijack
  void* target = dlsym(RTLD_DEFAULT, "cudaEventElapsedTime");
  // ruleid: cpp-timer-hijack
  mprotect(reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(target) & ~0xfffUL), 4096, 7);
  auto y = torch::empty_like(x);
  copy_kernel<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  return y;
}
