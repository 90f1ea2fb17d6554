// Fixture for cpp-input-mutation: in-place ATen methods on parameters.
#include <torch/extension.h>

torch::Tensor entry(torch::Tensor x, torch::Tensor w) {
  auto y = torch::empty_like(x);
  // ruleid: cpp-input-mutation
  x.zero_();
  // ruleid: cpp-input-mutation
  w.fill_(0.0f);
  // ok: cpp-input-mutation
  y.zero_();
  return y;
}

// A raw C++ file's callers are unknown: clearing a parameter's storage may be its output buffer.
void clear_output(torch::Tensor out) {
  // ok: cpp-input-mutation
  cudaMemset(out.data_ptr<float>(), 0, out.numel() * sizeof(float));
}
