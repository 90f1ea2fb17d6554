// Clang engine: names resolve through the shims, using-directives, namespace aliases, macros,
// templates and ## pasting; names the shims lack are still recorded.
#include <gtest/gtest.h>

#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

using testing::extract_raw;
using testing::find_call;
using testing::find_function;
using testing::has;
using testing::line_of;

// These cases exist only in builds with the Clang component (KGATE_WITH_CLANG, ON in CI): they are
// not compiled, rather than skipped, where it is absent.
#ifdef KGATE_HAVE_CLANG
class ClangResolution : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(clang_available()) << "kgate_clang is linked but clang_init() did not register it";
  }
};

TEST_F(ClangResolution, MatmulThroughUsingNamespaceAliasMacroAndPasting) {
  const std::string src = R"(#include <torch/extension.h>
namespace T = torch;
using namespace at;
#define MM(a, b) matmul(a, b)
#define PASTE(x, y) x##y
torch::Tensor f(torch::Tensor a, torch::Tensor b) {
  auto c1 = matmul(a, b);
  auto c2 = T::matmul(a, b);
  auto c3 = MM(a, b);
  auto c4 = PASTE(mat, mul)(a, b);
  return c1;
}
)";
  auto r = extract_raw(src);
  for (const char* needle : {"c1 =", "c2 =", "c3 =", "c4 ="}) {
    const Call* c = find_call(r.facts, "at::matmul", line_of(src, needle));
    ASSERT_NE(c, nullptr) << needle;
    EXPECT_TRUE(c->reachable) << needle;
  }
  const Call* pasted = find_call(r.facts, "at::matmul", line_of(src, "c4 ="));
  EXPECT_TRUE(pasted->dynamic_name);
  EXPECT_NE(pasted->callee.find("token-pasted"), std::string::npos);
  EXPECT_FALSE(find_call(r.facts, "at::matmul", line_of(src, "c3 ="))->dynamic_name);
  EXPECT_EQ(find_call(r.facts, "at::matmul", line_of(src, "c3 ="))->callee, "MM(a,b)");
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.facts.engine, "clang");
}

TEST_F(ClangResolution, CublasMacrosStreamsAndUnknownNames) {
  const std::string src = R"(#include <torch/extension.h>
#include <cublas_v2.h>
#include "project_header_that_does_not_exist.h"
#define MK(a, b) cudaStream##a##b
torch::Tensor g(torch::Tensor x) {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, nullptr, nullptr, 1, nullptr, 1, nullptr, nullptr, 1);
  cudaStream_t s;
  MK(Create, WithFlags)(&s, cudaStreamNonBlocking);
  mylib::gemm(x);
  x.frobnicate(2);
  helper_from_missing_header(x, 3);
  return x;
}
)";
  auto r = extract_raw(src);
  EXPECT_NE(find_call(r.facts, "cublasSgemm_v2"), nullptr);
  EXPECT_NE(find_call(r.facts, "cublasCreate_v2"), nullptr);
  const Call* stream = find_call(r.facts, "cudaStreamCreateWithFlags");
  ASSERT_NE(stream, nullptr);
  EXPECT_TRUE(stream->dynamic_name);
  EXPECT_TRUE(testing::has(stream->keywords, "cudaStreamNonBlocking"));
  EXPECT_NE(find_call(r.facts, "mylib::gemm"), nullptr);
  EXPECT_NE(find_call(r.facts, "at::Tensor::frobnicate"), nullptr);
  EXPECT_NE(find_call(r.facts, "helper_from_missing_header"), nullptr);
  EXPECT_EQ(r.facts.engine, "clang") << "a missing project header must not push the file to the fallback";
}

TEST_F(ClangResolution, KernelsLaunchesAndValidity) {
  const std::string src = R"(#include <torch/extension.h>
constexpr bool kOn = false;
__global__ void writes(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
__global__ void reads_only(const float* x, int n) { float s = 0; for (int i = 0; i < n; ++i) s += x[i]; }
template <typename T> __global__ void tmpl(T* y) { y[threadIdx.x] = T(0); }
__device__ float helper(float v) { return v * 2; }
torch::Tensor entry(torch::Tensor x) {
  auto y = torch::empty_like(x);
  writes<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  if (kOn) writes<<<1, 1>>>(x.data_ptr<float>(), y.data_ptr<float>(), 1);
  dim3 none(0, 1);
  tmpl<float><<<none, 32>>>(y.data_ptr<float>());
  reads_only<<<1, 32>>>(x.data_ptr<float>(), 4);
  return y;
  writes<<<1, 1>>>(x.data_ptr<float>(), y.data_ptr<float>(), 1);
}
)";
  auto r = extract_raw(src);
  ASSERT_EQ(r.facts.launches.size(), 5u);
  const auto& l = r.facts.launches;
  EXPECT_EQ(l[0].kernel, "writes");
  EXPECT_EQ(l[0].grid, "(x.numel() + 255) / 256");
  EXPECT_TRUE(l[0].reachable);
  EXPECT_TRUE(l[1].guard.constant_false);
  EXPECT_FALSE(l[1].reachable);
  EXPECT_EQ(l[2].kernel, "tmpl");
  EXPECT_TRUE(l[2].grid_empty);
  EXPECT_TRUE(l[4].guard.after_return);
  const Function* writes = testing::find_function(r.facts, "writes");
  const Function* reads = testing::find_function(r.facts, "reads_only");
  const Function* helper = testing::find_function(r.facts, "helper");
  ASSERT_TRUE(writes && reads && helper);
  EXPECT_EQ(writes->kind, FunctionKind::CudaGlobal);
  EXPECT_EQ(helper->kind, FunctionKind::CudaDevice);
  EXPECT_FALSE(testing::has(writes->decorators, "no-pointer-write"));
  EXPECT_TRUE(testing::has(reads->decorators, "no-pointer-write"));
  EXPECT_TRUE(reads->reachable);
  const Function* entry = testing::find_function(r.facts, "entry");
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(testing::has(entry->decorators, "tensor-entry"));
  EXPECT_TRUE(entry->reachable);
  EXPECT_EQ(l[0].kernel_function, static_cast<int>(writes - r.facts.functions.data()));
}

TEST_F(ClangResolution, StateCastsReturnsAndThreads) {
  const std::string src = R"(#include <torch/extension.h>
#include <cuda_fp16.h>
#include <thread>
static torch::Tensor cache;
static float* workspace = nullptr;
__global__ void k(const float* x, __half* y) { y[threadIdx.x] = __float2half(x[threadIdx.x]); }
torch::Tensor entry(torch::Tensor x) {
  if (!workspace) cudaMalloc(&workspace, 16);
  cache = x.to(at::kHalf);
  std::thread t([] {});
  t.detach();
  auto out = torch::empty_like(x);
  return out;
}
)";
  auto r = extract_raw(src);
  ASSERT_EQ(r.facts.globals.size(), 2u);
  EXPECT_EQ(r.facts.globals[0].kind, "tensor");
  EXPECT_TRUE(r.facts.globals[0].mutated_in_forward);
  EXPECT_EQ(r.facts.globals[1].kind, "pointer");
  bool function_cast = false, method_cast = false;
  for (const auto& c : r.facts.casts) {
    function_cast |= c.to_dtype == "torch.float16" && c.via == "function";
    method_cast |= c.to_dtype == "torch.float16" && c.via == "method";
  }
  EXPECT_TRUE(function_cast);
  EXPECT_TRUE(method_cast);
  EXPECT_NE(find_call(r.facts, "std::thread::thread"), nullptr);
  EXPECT_NE(find_call(r.facts, "std::thread::detach"), nullptr);
  ASSERT_EQ(r.facts.returns.size(), 1u);
  EXPECT_TRUE(testing::has(r.facts.returns[0].origins, "at::empty_like"));
  EXPECT_FALSE(r.facts.returns[0].written);
}

// A library function reached as a value is a call of it: through a table of function pointers, a
// std::function holding a lambda, an argument, a virtual method, a functor, a schema name looked up in
// c10::Dispatcher, and a declaration bound to another symbol by an asm label.
TEST_F(ClangResolution, LibraryFunctionsReachedAsValues) {
  const std::string src = R"(#include <torch/extension.h>
#include <functional>
using Op = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
static const Op kOps[] = {&at::matmul};
static std::function<at::Tensor(const at::Tensor&)> g_act = [](const at::Tensor& t) { return at::gelu(t); };
struct Base { virtual at::Tensor go(const at::Tensor& t) const = 0; };
struct Impl : Base { at::Tensor go(const at::Tensor& t) const override { return at::softmax(t, 1); } };
struct Functor { at::Tensor operator()(const at::Tensor& t) const { return at::relu(t); } };
at::Tensor renamed(const at::Tensor& a, const at::Tensor& b) __asm__("_ZN2at6matmulERKNS_6TensorES2_");
at::Tensor apply(Op op, const at::Tensor& a) { return op(a, a); }
torch::Tensor entry(torch::Tensor a) {
  auto t1 = kOps[0](a, a);
  auto t2 = g_act(t1);
  Impl impl;
  const Base& base = impl;
  auto t3 = base.go(t2);
  Functor functor;
  auto t4 = functor(t3);
  auto t5 = apply(&at::mm, t4);
  auto t6 = c10::Dispatcher::singleton().findSchemaOrThrow("aten::bmm", "").typed<at::Tensor(const at::Tensor&, const at::Tensor&)>().call(t5, t5);
  return renamed(t6, t6);
}
)";
  auto r = extract_raw(src);
  const struct {
    const char* resolved;
    const char* line;
  } expected[] = {{"at::matmul", "t1 ="},          {"at::gelu", "t2 ="}, {"at::softmax", "struct Impl"},
                  {"at::relu", "struct Functor"},  {"at::mm", "t5 ="},   {"at::bmm", "t6 ="},
                  {"at::matmul", "return renamed"}};
  for (const auto& e : expected) {
    const Call* c = find_call(r.facts, e.resolved, line_of(src, e.line));
    ASSERT_NE(c, nullptr) << e.resolved << " at " << e.line;
    EXPECT_TRUE(c->reachable) << e.resolved << " at " << e.line;
  }
  EXPECT_TRUE(has(find_call(r.facts, "at::matmul", line_of(src, "t1 ="))->keywords, "@via:kOps"));
  EXPECT_TRUE(has(find_call(r.facts, "at::mm", line_of(src, "t5 ="))->keywords, "@as-value"));
  EXPECT_TRUE(has(find_call(r.facts, "at::bmm", line_of(src, "t6 ="))->keywords, "@dispatcher"));
  EXPECT_TRUE(has(find_function(r.facts, "Impl::go")->decorators, "overrides:Base::go"));
  for (const auto& c : r.facts.calls) EXPECT_FALSE(c.unresolved_dynamic) << c.resolved;
}

// A call through a callable variable whose initializer shows no function is unresolved; one whose
// initializer names the submission's own launcher is that launcher, and reaches its kernel.
TEST_F(ClangResolution, CallableVariablesFilledAtRunTime) {
  const std::string src = R"(#include <torch/extension.h>
__global__ void k(float* y) { y[0] = 1.0f; }
void launch(const at::Tensor& y) { k<<<1, 1>>>(y.data_ptr<float>()); }
using Launcher = void (*)(const at::Tensor&);
static Launcher g_set_later = nullptr;
static const Launcher kOwn[] = {&launch};
void install() { g_set_later = &launch; }
torch::Tensor entry(torch::Tensor y) {
  g_set_later(y);
  kOwn[0](y);
  return y;
}
)";
  auto r = extract_raw(src);
  const Call* unresolved = find_call(r.facts, "g_set_later", line_of(src, "g_set_later(y)"));
  ASSERT_NE(unresolved, nullptr);
  EXPECT_TRUE(unresolved->unresolved_dynamic);
  EXPECT_TRUE(unresolved->reachable);
  const Call* own = find_call(r.facts, "launch", line_of(src, "kOwn[0](y)"));
  ASSERT_NE(own, nullptr);
  EXPECT_FALSE(own->unresolved_dynamic);
  EXPECT_TRUE(own->local_target);
  EXPECT_TRUE(find_function(r.facts, "launch")->reachable);
  EXPECT_TRUE(find_function(r.facts, "k")->reachable);
}

#endif  // KGATE_HAVE_CLANG

}  // namespace
}  // namespace kgate::cuda
