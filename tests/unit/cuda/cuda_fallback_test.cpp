// The tree-sitter-cuda engine: used when Clang is absent, asked for, or cannot parse; it still finds
// kernels, launches and calls, and says that the weaker engine was used.
#include <gtest/gtest.h>

#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

using testing::extract_raw;
using testing::find_call;
using testing::line_of;

CudaOptions tree_sitter_only() {
  CudaOptions options;
  options.force_tree_sitter = true;
  return options;
}

const char* kKernelFile = R"(#include <torch/extension.h>
#define JOIN(a, b) cudaStream##a##b
namespace T = torch;
__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
__global__ void idle(const float* x) { float s = x[0]; (void)s; }
torch::Tensor fwd(torch::Tensor x) {
  auto y = torch::empty_like(x);
  cudaStream_t s;
  JOIN(Create, WithFlags)(&s, cudaStreamNonBlocking);
  k<<<(x.numel() + 255) / 256, 256, 0, s>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  if (false) { idle<<<1, 1>>>(x.data_ptr<float>()); }
  k<<<0, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), 0);
  auto z = T::matmul(x, x);
  return y;
}
)";

void expect_core_facts(const FactSet& f, const std::string& src) {
  const Function* k = testing::find_function(f, "k");
  const Function* idle = testing::find_function(f, "idle");
  ASSERT_TRUE(k && idle);
  EXPECT_EQ(k->kind, FunctionKind::CudaGlobal);
  EXPECT_FALSE(testing::has(k->decorators, "no-pointer-write"));
  EXPECT_TRUE(testing::has(idle->decorators, "no-pointer-write"));
  ASSERT_EQ(f.launches.size(), 3u);
  EXPECT_TRUE(f.launches[0].reachable);
  EXPECT_EQ(f.launches[0].span.line, line_of(src, "k<<<(x"));
  EXPECT_TRUE(f.launches[1].guard.constant_false);
  EXPECT_TRUE(f.launches[2].grid_empty);
  const Call* pasted = find_call(f, "cudaStreamCreateWithFlags");
  ASSERT_NE(pasted, nullptr);
  EXPECT_TRUE(pasted->dynamic_name);
  EXPECT_NE(find_call(f, "at::matmul"), nullptr);
}

TEST(CudaFallback, RequestedTreeSitterEngine) {
  auto r = extract_raw(kKernelFile, tree_sitter_only());
  expect_core_facts(r.facts, kKernelFile);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "engine-fallback");
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Warning);
  EXPECT_EQ(r.facts.engine, "tree-sitter-cuda");
}

// Library functions as values, read by syntax: in a function (`&at::matmul`, an argument), and
// through a table or std::function of namespace scope; a handle variable is not a function.
TEST(CudaFallback, TreeSitterReadsFunctionValues) {
  const std::string src = R"(#include <torch/extension.h>
using Op = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
static const Op kOps[] = {&at::matmul};
static std::function<at::Tensor(const at::Tensor&)> g_act = [](const at::Tensor& t) { return at::gelu(t); };
at::Tensor apply(Op op, const at::Tensor& a) { return op(a, a); }
torch::Tensor fwd(torch::Tensor a, cublasHandle_t cublas_handle) {
  auto b = kOps[0](a, a);
  auto c = g_act(b);
  auto d = apply(&at::mm, c);
  auto e = apply(at::bmm, d);
  use_handle(cublas_handle);
  return e;
}
)";
  auto r = extract_raw(src, tree_sitter_only());
  for (const auto& [name, line] : std::vector<std::pair<std::string, std::string>>{
           {"at::matmul", "b = kOps"}, {"at::gelu", "c = g_act"}, {"at::mm", "d = apply"}, {"at::bmm", "e = apply"}}) {
    const Call* c = find_call(r.facts, name, line_of(src, line));
    ASSERT_NE(c, nullptr) << name;
    EXPECT_TRUE(c->reachable) << name;
  }
  for (const auto& c : r.facts.calls) EXPECT_NE(c.resolved, "cublas_handle");
}

// Host glue both engines must read alike: metadata and optionals are not ATen compute, arithmetic on a
// one-element tensor is glue (scalar_operands), and C++ operators on full tensors are ATen calls.
const char* kGlueFile = R"(#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor x, c10::optional<torch::Tensor> bias) {
  if (bias.has_value()) { auto b = bias.value(); (void)b; }
  auto sizes = x.sizes();
  auto out_sizes = sizes.vec();
  auto total = torch::zeros(1, torch::TensorOptions().device(x.device()).dtype(x.dtype()));
  auto inv = total.sqrt().reciprocal();
  auto scaled = x / inv;
  auto out = torch::empty(out_sizes, torch::dtype(torch::kFloat32).device(x.device()));
  out += scaled;
  auto eleven = torch::zeros({11}, x.options()).sqrt();
  auto zero_d = torch::zeros({}, x.options()).sqrt();
  return out;
}
)";

void expect_glue_facts(const FactSet& f, const std::string& engine) {
  for (const auto& c : f.calls) {
    EXPECT_NE(c.resolved, "at::Tensor::has_value") << engine;
    EXPECT_NE(c.resolved, "at::Tensor::value") << engine;
    EXPECT_NE(c.resolved, "at::Tensor::vec") << engine;
  }
  const Call* sqrt = find_call(f, "at::Tensor::sqrt");
  const Call* reciprocal = find_call(f, "at::Tensor::reciprocal");
  const Call* divide = find_call(f, "at::operator/");
  const Call* accumulate = find_call(f, "at::Tensor::operator+=");
  ASSERT_TRUE(sqrt && reciprocal && divide && accumulate) << engine;
  EXPECT_TRUE(sqrt->scalar_operands) << engine;
  EXPECT_TRUE(reciprocal->scalar_operands) << engine;
  EXPECT_FALSE(divide->scalar_operands) << engine;
  EXPECT_FALSE(accumulate->scalar_operands) << engine;
  const Call* eleven = find_call(f, "at::Tensor::sqrt", line_of(kGlueFile, "eleven ="));
  const Call* zero_d = find_call(f, "at::Tensor::sqrt", line_of(kGlueFile, "zero_d ="));
  ASSERT_TRUE(eleven && zero_d) << engine;
  EXPECT_FALSE(eleven->scalar_operands) << engine;
  EXPECT_TRUE(zero_d->scalar_operands) << engine;
  // `out += scaled` writes `out` and keeps its origin: the return is not an unwritten torch::empty.
  ASSERT_EQ(f.returns.size(), 1u) << engine;
  EXPECT_TRUE(f.returns[0].written) << engine;
}

TEST(CudaFallback, TreeSitterReadsHostGlueAsClangDoes) {
  testing::expect_from_both_engines(kGlueFile, expect_glue_facts);
}

// Launches written inside a function-like macro (a dispatch over template parameters), and a mean
// taken by dividing a one-element tensor by a converted count: read alike by both engines.
constexpr const char* kMacroLaunchFile = R"(#include <torch/extension.h>
template <int BLOCK>
__global__ void scale_t(const float* x, float* y, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
__global__ void sum_all(const float* x, float* s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(s, x[i]);
}
#define LAUNCH_SCALE(B) \
  scale_t<B><<<(n + (B) - 1) / (B), B>>>(x.data_ptr<float>(), y.data_ptr<float>(), n)
#define LAUNCH_NONE(G) sum_all<<<G, 256>>>(x.data_ptr<float>(), s.data_ptr<float>(), n)
torch::Tensor run(torch::Tensor x, int wide) {
  auto y = torch::empty_like(x);
  auto s = torch::zeros({1}, x.options());
  int n = x.numel();
  if (wide) { LAUNCH_SCALE(256); } else { LAUNCH_SCALE(128); }
  LAUNCH_NONE(0);
  s.div_(static_cast<float>(n));
  return y;
}
)";

void expect_macro_launch_facts(const FactSet& f, const std::string& engine) {
  int scale = 0, none = 0;
  for (const Launch& l : f.launches) {
    if (l.kernel.rfind("scale_t", 0) == 0) {
      ++scale;
      EXPECT_FALSE(l.grid_empty) << engine;
    }
    if (l.kernel == "sum_all") {
      ++none;
      EXPECT_TRUE(l.grid_empty) << engine;
    }
  }
  EXPECT_EQ(scale, 2) << engine;
  EXPECT_EQ(none, 1) << engine;
  // The launch writes y: the return is not an unwritten torch::empty_like.
  ASSERT_EQ(f.returns.size(), 1u) << engine;
  EXPECT_TRUE(f.returns[0].written) << engine;
  const Call* divide = find_call(f, "at::Tensor::div_");
  ASSERT_NE(divide, nullptr) << engine;
  EXPECT_TRUE(divide->scalar_operands) << engine;
}

TEST(CudaFallback, LaunchesInsideMacrosAreLaunches) {
  testing::expect_from_both_engines(kMacroLaunchFile, expect_macro_launch_facts);
}

// What the Clang engine reads through types, the tree-sitter engine reads from syntax where it can: an
// asm label, a dispatcher schema, `using namespace at` (directly and in a macro), a callable global that
// starts empty. Near misses stay apart: integers under `using namespace at`, a method of an object held
// in an empty global, a declared function that returns a pointer.
TEST(CudaFallback, TreeSitterReadsIndirectLibraryCalls) {
  const std::string src = R"(#include <torch/extension.h>
using namespace at;
#define COMBINE(l, r) matmul(l, r)
Tensor hidden(const Tensor& a, const Tensor& b) __asm__("_ZN2at6matmulERKNS_6TensorES2_");
using Gemm = Tensor (*)(const Tensor&, const Tensor&);
static Gemm g_gemm = nullptr;
struct Runner { void run(); };
static Runner* g_runner = nullptr;
float* scratch(int64_t n);
Tensor fwd(Tensor a, Tensor b) {
  auto c = hidden(a, b);
  static auto op = c10::Dispatcher::singleton().findSchemaOrThrow("aten::bmm", "");
  auto d = COMBINE(c, b);
  auto e = g_gemm(d, a);
  int64_t widest = max(a.size(0), b.size(0));
  g_runner->run();
  float* s = scratch(widest);
  (void)s;
  return e;
}
)";
  auto r = extract_raw(src, tree_sitter_only());
  for (const auto& [name, line] : std::vector<std::pair<std::string, std::string>>{
           {"at::matmul", "c = hidden"}, {"at::bmm", "static auto op"}, {"at::matmul", "d = COMBINE"}}) {
    const Call* c = find_call(r.facts, name, line_of(src, line));
    ASSERT_NE(c, nullptr) << name << " at " << line;
    EXPECT_FALSE(c->unresolved_dynamic) << name;
  }
  const Call* through = find_call(r.facts, "g_gemm", line_of(src, "e = g_gemm"));
  ASSERT_NE(through, nullptr);
  bool unresolved = false;
  for (const auto& c : r.facts.calls)
    if (c.span.line == line_of(src, "e = g_gemm") && c.unresolved_dynamic) unresolved = true;
  EXPECT_TRUE(unresolved);
  for (const auto& c : r.facts.calls) {
    EXPECT_NE(c.resolved, "at::max") << "integers under using namespace at";
    if (c.span.line == line_of(src, "g_runner->run") || c.span.line == line_of(src, "= scratch(")) {
      EXPECT_FALSE(c.unresolved_dynamic) << c.resolved;
    }
  }
}

#ifdef KGATE_HAVE_CLANG
TEST(CudaFallback, ClangCannotParse) {
  ASSERT_TRUE(clang_available());
  // Valid CUDA followed by a pile of stray braces (a botched merge): Clang reports an error per brace.
  std::string src = kKernelFile;
  for (int i = 0; i < 40; ++i) src += "} } }\n";
  auto r = extract_raw(src);
  EXPECT_TRUE(testing::has_rule(r.diagnostics, "engine-fallback"));
  EXPECT_EQ(r.facts.engine, "tree-sitter-cuda");
  expect_core_facts(r.facts, src);
}

TEST(CudaFallback, ClangAgreesOnTheSameFile) {
  ASSERT_TRUE(clang_available());
  auto r = extract_raw(kKernelFile);
  EXPECT_FALSE(testing::has_rule(r.diagnostics, "engine-fallback"));
  expect_core_facts(r.facts, kKernelFile);
}

#endif  // KGATE_HAVE_CLANG

}  // namespace
}  // namespace kgate::cuda
