// Fixture for cpp-returns-unwritten: returning torch::empty* that nothing wrote.
#include <torch/extension.h>

__global__ void fill(float* y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1.0f;
}

torch::Tensor unwritten(torch::Tensor x) {
  auto out = torch::empty_like(x);
  // ruleid: cpp-returns-unwritten
  return out;
}

torch::Tensor direct(torch::Tensor x) {
  // ruleid: cpp-returns-unwritten
  return at::empty({x.size(0)}, x.options());
}

torch::Tensor written(torch::Tensor x) {
  auto out = torch::empty_like(x);
  float* p = out.data_ptr<float>();
  fill<<<1, 256>>>(p, out.numel());
  // ok: cpp-returns-unwritten
  return out;
}

// A descriptor that carries the output's memory (ThunderKittens' global layouts, a params struct).
struct Layout {
  float* data;
  int64_t n;
};

__global__ void fill_layout(Layout out) {
  if (threadIdx.x < out.n) out.data[threadIdx.x] = 1.f;
}

torch::Tensor through_descriptor(torch::Tensor x) {
  auto out = torch::empty_like(x);
  Layout layout{out.data_ptr<float>(), out.numel()};
  fill_layout<<<1, 256>>>(layout);
  // ok: cpp-returns-unwritten
  return out;
}

// Reassigned with a computed value: the allocation is no longer what is returned (the ATen call is
// another rule's business).
torch::Tensor reassigned(torch::Tensor x) {
  auto out = torch::empty_like(x);
  out = at::relu(x);
  // ok: cpp-returns-unwritten
  return out;
}

// Reassigned on one path only: the other returns the allocation unwritten.
torch::Tensor reassigned_sometimes(torch::Tensor x, bool flag) {
  auto out = torch::empty_like(x);
  if (flag) out = at::relu(x);
  // ruleid: cpp-returns-unwritten
  return out;
}

// An allocation helper: its caller decides (the helper itself is judged only when Python binds it).
static torch::Tensor make_output(const torch::Tensor& x) {
  // ok: cpp-returns-unwritten
  return torch::empty_like(x);
}

torch::Tensor helper_written(torch::Tensor x) {
  auto out = make_output(x);
  fill<<<1, 256>>>(out.data_ptr<float>(), out.numel());
  // ok: cpp-returns-unwritten
  return out;
}

torch::Tensor helper_unwritten(torch::Tensor x) {
  auto out = make_output(x);
  // ruleid: cpp-returns-unwritten
  return out;
}
