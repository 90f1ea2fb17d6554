// Clang engine: names resolve through the shims, using-directives, namespace aliases, macros,
// templates and ## pasting; names the shims lack are still recorded.
#include <gtest/gtest.h>

#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

using testing::extract_raw;
using testing::find_call;
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

#endif  // KGATE_HAVE_CLANG

}  // namespace
}  // namespace kgate::cuda
