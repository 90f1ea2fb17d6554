// Fixture for cpp-call-unresolved: calls through callables whose value the initializer does not show.
#include <torch/extension.h>
#include <functional>

__global__ void scale(const float* x, float* y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}

using Launcher = void (*)(const at::Tensor&, at::Tensor&);
void launch_scale(const at::Tensor& x, at::Tensor& y) {
  scale<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
}

static Launcher g_registered = nullptr;
static std::function<at::Tensor(const at::Tensor&)> g_hook;
static const Launcher kLaunchers[] = {&launch_scale};
static std::function<void(const at::Tensor&, at::Tensor&)> g_lambda = [](const at::Tensor& x, at::Tensor& y) {
  launch_scale(x, y);
};

void register_impl(Launcher l) { g_registered = l; }

torch::Tensor entry(torch::Tensor x) {
  auto y = torch::empty_like(x);
  // ruleid: cpp-call-unresolved
  g_registered(x, y);
  // ruleid: cpp-call-unresolved
  auto z = g_hook(y);
  // ok: cpp-call-unresolved
  kLaunchers[0](x, y);
  // ok: cpp-call-unresolved
  g_lambda(x, y);
  Launcher local = &launch_scale;
  // ok: cpp-call-unresolved
  local(x, y);
  return z;
}
