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

// Two helpers: the middle one returns the first's result directly (`return allocate(x);`). The
// buffer is still unwritten where the exported function returns it.
static torch::Tensor allocate_like(const torch::Tensor& x) {
  // ok: cpp-returns-unwritten
  return torch::empty_like(x);
}

static torch::Tensor make_result(const torch::Tensor& x) {
  // ok: cpp-returns-unwritten
  return allocate_like(x);
}

torch::Tensor two_helpers_unwritten(torch::Tensor x) {
  auto out = make_result(x);
  // ruleid: cpp-returns-unwritten
  return out;
}

torch::Tensor two_helpers_direct(torch::Tensor x) {
  // ruleid: cpp-returns-unwritten
  return make_result(x);
}

torch::Tensor two_helpers_written(torch::Tensor x) {
  auto out = make_result(x);
  fill<<<1, 256>>>(out.data_ptr<float>(), out.numel());
  // ok: cpp-returns-unwritten
  return out;
}

// A helper that launches the kernel on its own buffer: returning its result directly is honest.
static torch::Tensor launch_fill(const torch::Tensor& x) {
  auto out = torch::empty_like(x);
  fill<<<1, 256>>>(out.data_ptr<float>(), out.numel());
  // ok: cpp-returns-unwritten
  return out;
}

torch::Tensor forwarded_to_launcher(torch::Tensor x) {
  // ok: cpp-returns-unwritten
  return launch_fill(x);
}

// Filled by an in-place method on the allocation itself.
torch::Tensor filled_in_place(torch::Tensor x) {
  // ok: cpp-returns-unwritten
  return torch::empty_like(x).fill_(1.0f);
}

// Handed to a function of the file: written when that function writes its parameter.
static void launch_into(torch::Tensor& y) { fill<<<1, 256>>>(y.data_ptr<float>(), y.numel()); }

torch::Tensor handed_to_launcher(torch::Tensor x) {
  auto out = torch::empty_like(x);
  launch_into(out);
  // ok: cpp-returns-unwritten
  return out;
}

// A view of the buffer handed to the launcher writes the buffer.
torch::Tensor view_handed_to_launcher(torch::Tensor x) {
  auto out = torch::empty_like(x);
  auto flat = out.view({-1});
  launch_into(flat);
  // ok: cpp-returns-unwritten
  return out;
}

// A helper that only checks the buffer's shape, or does nothing with it, writes nothing.
static void check_output(const torch::Tensor& y, const torch::Tensor& x) {
  TORCH_CHECK(y.sizes() == x.sizes(), "shape mismatch");
}

static void touch(torch::Tensor& y) {}

torch::Tensor handed_to_checker(torch::Tensor x) {
  auto out = torch::empty_like(x);
  check_output(out, x);
  // ruleid: cpp-returns-unwritten
  return out;
}

// One more step: a helper that hands the buffer on to the no-op.
static void prepare(torch::Tensor& y) { touch(y); }

torch::Tensor handed_through_two(torch::Tensor x) {
  auto out = torch::empty_like(x);
  prepare(out);
  // ruleid: cpp-returns-unwritten
  return out;
}

// A function the file only declares may write it (it is linked from elsewhere).
void external_fill(torch::Tensor& y);

torch::Tensor handed_to_declared(torch::Tensor x) {
  auto out = torch::empty_like(x);
  external_fill(out);
  // ok: cpp-returns-unwritten
  return out;
}
