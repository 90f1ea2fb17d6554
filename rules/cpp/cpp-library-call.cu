// Fixture for cpp-library-call: library compute on the judged host path, through aliases and macros.
#include <torch/extension.h>
#include <cublas_v2.h>
#include <ATen/cuda/CUDAContext.h>
namespace T = torch;
using namespace at;
#define COMPUTE(a, b) mm(a, b)

__global__ void scale(float* y, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] *= 2.0f;
}

torch::Tensor entry(torch::Tensor a, torch::Tensor b) {
  // ok: cpp-library-call
  auto out = torch::empty({a.size(0), b.size(1)}, a.options());
  // ok: cpp-library-call
  auto opts = at::TensorOptions().dtype(at::kFloat).device(a.device());
  // ok: cpp-library-call
  auto flat = out.view_as(a).cpu();
  // ruleid: cpp-library-call
  auto c = at::matmul(a, b);
  // ruleid: cpp-library-call
  auto d = T::conv2d(a, b);
  // ruleid: cpp-library-call
  auto e = COMPUTE(a, b);
  const float one = 1.f, zero = 0.f;
  // ok: cpp-library-call
  cublasHandle_t h = at::cuda::getCurrentCUDABlasHandle();
  // ruleid: cpp-library-call
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, a.data_ptr<float>(), 1, b.data_ptr<float>(), 1, &zero,
              out.data_ptr<float>(), 1);
  // ruleid: cpp-library-call
  at::cuda::blas::gemm<float>('n', 'n', 1, 1, 1, one, a.data_ptr<float>(), 1, b.data_ptr<float>(), 1, zero,
                              out.data_ptr<float>(), 1);
  // ok: cpp-library-call
  scale<<<1, 256>>>(out.data_ptr<float>(), out.numel());
  return out;
}

// A loss: the kernel sums into a 0-d tensor, which is then divided by N (glue); a full tensor divided
// by N is compute.
torch::Tensor loss_entry(torch::Tensor a) {
  auto total = torch::zeros({}, a.options());
  auto single = torch::zeros({1}, a.options());
  scale<<<1, 256>>>(total.data_ptr<float>(), a.numel());
  // ok: cpp-library-call
  auto mean = total / a.numel();
  // ok: cpp-library-call
  auto both = single * 2.0 + mean;
  // ruleid: cpp-library-call
  auto full = a / a.numel();
  // ruleid: cpp-library-call
  auto mixed = a * total;
  return mixed;
}

// Not reachable from any entry (no tensor parameters, never called): not judged.
void unused_helper(at::Tensor* a) {
  // ok: cpp-library-call
  at::matmul(*a, *a);
}

// Library functions reached as values: a table of function pointers, a std::function holding a
// lambda, a virtual method, a functor, an operator looked up by its schema name, an asm label.
using BinaryOp = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
static const BinaryOp kBinaryOps[] = {&at::matmul, &at::add};
static std::function<at::Tensor(const at::Tensor&)> g_activation = [](const at::Tensor& t) { return at::gelu(t); };

struct Epilogue {
  virtual at::Tensor apply(const at::Tensor& t) const = 0;
};
struct LibraryEpilogue : Epilogue {
  at::Tensor apply(const at::Tensor& t) const override {
    // ruleid: cpp-library-call
    return at::softmax(t, 1);
  }
};
struct Product {
  at::Tensor operator()(const at::Tensor& a, const at::Tensor& b) const {
    // ruleid: cpp-library-call
    return at::bmm(a, b);
  }
};
at::Tensor renamed_matmul(const at::Tensor& a, const at::Tensor& b) __asm__("_ZN2at6matmulERKNS_6TensorES2_");

at::Tensor apply_op(BinaryOp op, const at::Tensor& a, const at::Tensor& b) { return op(a, b); }

torch::Tensor values_entry(torch::Tensor a, torch::Tensor b) {
  // ruleid: cpp-library-call
  auto c = kBinaryOps[0](a, b);
  // ruleid: cpp-library-call
  auto d = g_activation(c);
  LibraryEpilogue epilogue;
  const Epilogue& e = epilogue;
  auto f = e.apply(d);
  Product product;
  auto g = product(f, f);
  // ruleid: cpp-library-call
  auto h = apply_op(&at::mm, g, g);
  // ruleid: cpp-library-call
  static auto op = c10::Dispatcher::singleton().findSchemaOrThrow("aten::relu", "").typed<at::Tensor(const at::Tensor&)>();
  auto i = op.call(h);
  // ruleid: cpp-library-call
  return renamed_matmul(i, i);
}
