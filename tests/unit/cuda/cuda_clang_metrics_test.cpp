// The Clang counter of C++/CUDA metrics (analyzers/cuda/clang/clang_metrics.cpp): exact counts by the
// rules of docs/metrics.md, and the same numbers as the tree-sitter-cuda counter where the rules say so.
#include <gtest/gtest.h>

#include <string>

#include "analyzers/metrics/cpp_metrics.h"
#include "analyzers/pipeline/pipeline.h"
#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

// These cases exist only in builds with the Clang component (KGATE_WITH_CLANG, ON in CI): they are
// not compiled, rather than skipped, where it is absent.
#ifdef KGATE_HAVE_CLANG

// A raw file measured by one counter: Clang's (the engine measures while it collects) or tree-sitter-cuda's.
FactSet measured(const std::string& text, bool tree_sitter = false) {
  CudaOptions options;
  options.force_tree_sitter = tree_sitter;
  SourceFile host("/tmp/kgate-metrics-test.cu", text);
  FactSet facts;
  std::vector<Diagnostic> diagnostics;
  extract_facts(host, facts, diagnostics, options);
  metrics::measure_cpp(host, facts);
  return facts;
}

const CodeMetrics* metrics_of(const FactSet& f, const std::string& name) {
  for (const auto& fn : f.functions)
    if (fn.name == name && fn.metrics.measured) return &fn.metrics;
  return nullptr;
}

int measured_named(const FactSet& f, const std::string& name) {
  int n = 0;
  for (const auto& fn : f.functions) n += fn.name == name && fn.metrics.measured;
  return n;
}

class ClangMetrics : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(clang_available()) << "kgate_clang is linked but clang_init() did not register it";
  }
};

TEST_F(ClangMetrics, KernelDecisionsTokensAndLines) {
  const std::string src =
      "__global__ void k(const float* x, float* y, int n) {\n"
      "  int i = blockIdx.x;  // index\n"
      "  if (i < n && x[i] > 0) y[i] = x[i] ? 1 : 0;\n"
      "#if 1\n"
      "  for (int j = 0; j < n; ++j) { switch (j) { case 0: break; default: break; } }\n"
      "#endif\n"
      "  do { --i; } while (i > 0 || n < 0);\n"
      "}\n";
  const FactSet f = measured(src);
  const CodeMetrics* k = metrics_of(f, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->counted_by, "clang");
  EXPECT_EQ(k->cyclomatic, 9);  // 1 + if, &&, ?:, #if, for, case (not default), do-while, ||
  EXPECT_EQ(k->sloc, 8);
  EXPECT_EQ(k->comment_lines, 1);
  // The definition, `int i`, the if, its assignment, #if, the for, its `int j`, switch, case, break,
  // default, break, do, --i: the `#endif` and the compound statements are no logical lines.
  EXPECT_EQ(k->lloc, 14);
  EXPECT_TRUE(f.modules[0].metrics.measured);
  EXPECT_EQ(f.modules[0].metrics.counted_by, "clang");
}

TEST_F(ClangMetrics, HalsteadTokensByKind) {
  // Operators: int int int ( , { return + ;  (closing brackets are not counted) -> 9 total, 7 distinct.
  // Operands: add a b a b -> 5 total, 3 distinct. `-1` is the operator `-` and the operand `1`.
  const FactSet f = measured("int add(int a, int b) { return a + b; }\nint neg() { return -1; }\n");
  const CodeMetrics* add = metrics_of(f, "add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->operators_total, 9);
  EXPECT_EQ(add->operators_distinct, 7);
  EXPECT_EQ(add->operands_total, 5);
  EXPECT_EQ(add->operands_distinct, 3);
  EXPECT_EQ(add->lloc, 2);
  EXPECT_EQ(add->sloc, 1);
  const CodeMetrics* neg = metrics_of(f, "neg");
  ASSERT_NE(neg, nullptr);
  EXPECT_EQ(neg->operators_total, 6);  // int ( { return - ;
  EXPECT_EQ(neg->operands_total, 2);   // neg 1
}

TEST_F(ClangMetrics, PreprocessorBranchesCountIncludingSkippedOnes) {
  // #if, #ifdef and #elif decide (not #ifndef, #else); decisions inside a skipped branch have no AST
  // and are counted from the lexer; a directive's own condition is one decision however many && it has.
  const std::string src =
      "int f(int x) {\n"
      "#if 0 && 1\n"
      "  if (x) return 1;\n"
      "#elif defined(FOO)\n"
      "  while (x) --x;\n"
      "#else\n"
      "  x = x ? 1 : 2;\n"
      "#endif\n"
      "#ifndef BAR\n"
      "  ++x;\n"
      "#endif\n"
      "#ifdef BAZ\n"
      "#endif\n"
      "  return x;\n"
      "}\n";
  const CodeMetrics* f = metrics_of(measured(src), "f");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->cyclomatic, 7);  // 1 + #if, if, #elif, while, ?:, #ifdef
}

TEST_F(ClangMetrics, TemplatesCountOnceLambdasInTheirFunctionImplicitMembersNot) {
  const std::string src =
      "template <typename T> __device__ T clampz(T v) { return v > 0 ? v : 0; }\n"
      "struct Acc { float s; void add(float v) { if (v > 0) s += v; } };\n"
      "__global__ void k(float* y, int n) {\n"
      "  auto pick = [&](int i) { return i < n && y[i] > 0; };\n"
      "  Acc a{}; Acc b = a; b = a;\n"
      "  a.add(clampz(1.0f) + clampz(2));\n"
      "  if (pick(0)) y[0] = a.s;\n"
      "}\n";
  const FactSet f = measured(src);
  EXPECT_EQ(measured_named(f, "clampz"), 1);  // the primary template, not its float and int instances
  ASSERT_NE(metrics_of(f, "clampz"), nullptr);
  EXPECT_EQ(metrics_of(f, "clampz")->cyclomatic, 2);
  ASSERT_NE(metrics_of(f, "add"), nullptr);
  EXPECT_EQ(metrics_of(f, "add")->cyclomatic, 2);
  const CodeMetrics* k = metrics_of(f, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->cyclomatic, 3);  // the lambda's && and the if: a lambda is no function of its own
  EXPECT_EQ(measured_named(f, "operator()"), 0);
  EXPECT_EQ(measured_named(f, "operator="), 0);  // Acc's implicit members have no text to measure
  EXPECT_EQ(measured_named(f, "Acc"), 0);
}

TEST_F(ClangMetrics, MacrosAndRejectedExpressions) {
  // A decision a macro's body writes is not in the function's text (lizard does not see it either); one
  // written in a macro's argument is. Expressions Clang rejects (undeclared names) lose their AST, not
  // their decisions: those come from the lexer. `&&` as an rvalue reference decides nothing.
  const std::string src =
      "#define GUARD(c) if (!(c)) return 0\n"
      "#define ID(x) (x)\n"
      "int f(int x, int y) {\n"
      "  GUARD(x > 0);\n"
      "  int z = ID(x && y);\n"
      "  if (x && undeclared_a) z = 1;\n"
      "  z = undeclared_b || z ? 1 : 2;\n"
      "  auto&& r = z;\n"
      "  return r;\n"
      "}\n";
  const CodeMetrics* f = metrics_of(measured(src), "f");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->cyclomatic, 6);  // 1 + ID's &&, if, &&, ||, ?:
}

TEST_F(ClangMetrics, SameCountsAsTheTreeSitterCounter) {
  // One set of rules, two counters: on valid code every count is equal.
  const std::string src =
      "#include <cuda_runtime.h>\n"
      "// a kernel\n"
      "#define N 4\n"
      "__global__ void k(const float* __restrict__ x, float* y, int n) {\n"
      "  __shared__ float tile[N];\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;  /* flat\n"
      "                                                     index */\n"
      "  if (i >= n || x == nullptr) return;\n"
      "  for (int j = 0; j < N; ++j) tile[j] = x[i] * -2.0f;\n"
      "  __syncthreads();\n"
      "  y[i] = static_cast<float>(tile[0] > 0 ? tile[0] : 0) + sizeof(int);\n"
      "}\n"
      "void launch(const float* x, float* y, int n) { k<<<(n + 255) / 256, 256>>>(x, y, n); }\n";
  const FactSet clang = measured(src);
  const FactSet tree_sitter = measured(src, true);
  for (const char* name : {"k", "launch"}) {
    const CodeMetrics* a = metrics_of(clang, name);
    const CodeMetrics* b = metrics_of(tree_sitter, name);
    ASSERT_NE(a, nullptr) << name;
    ASSERT_NE(b, nullptr) << name;
    EXPECT_EQ(a->counted_by, "clang");
    EXPECT_EQ(b->counted_by, "tree-sitter-cuda");
    EXPECT_EQ(a->cyclomatic, b->cyclomatic) << name;
    EXPECT_EQ(a->operators_distinct, b->operators_distinct) << name;
    EXPECT_EQ(a->operands_distinct, b->operands_distinct) << name;
    EXPECT_EQ(a->operators_total, b->operators_total) << name;
    EXPECT_EQ(a->operands_total, b->operands_total) << name;
    EXPECT_EQ(a->sloc, b->sloc) << name;
    EXPECT_EQ(a->lloc, b->lloc) << name;
    EXPECT_EQ(a->comment_lines, b->comment_lines) << name;
  }
  EXPECT_EQ(metrics_of(clang, "k")->cyclomatic, 5);  // ||, if, for, ?:
  const CodeMetrics& m = clang.modules[0].metrics;
  const CodeMetrics& t = tree_sitter.modules[0].metrics;
  EXPECT_EQ(m.operators_total, t.operators_total);
  EXPECT_EQ(m.operands_total, t.operands_total);
  EXPECT_EQ(m.sloc, t.sloc);
  EXPECT_EQ(m.lloc, t.lloc);
  EXPECT_EQ(m.comment_lines, t.comment_lines);
  EXPECT_EQ(m.comment_lines, 3);
}

TEST_F(ClangMetrics, EmbeddedSourcesAreMeasuredPerModuleAtTheirPythonLines) {
  // load_inline joins cpp_sources and compiles them as one text; each string is still its own module.
  const std::string py =
      "import torch\n"
      "from torch.utils.cpp_extension import load_inline\n"
      "a = r'''\n"
      "#include <torch/extension.h>\n"
      "torch::Tensor twice(torch::Tensor x) {\n"
      "  if (x.numel() == 0) return x;\n"
      "  return x;\n"
      "}\n"
      "'''\n"
      "b = r'''\n"
      "int helper(int v) { return v > 0 && v < 9 ? v : 0; }\n"
      "'''\n"
      "ext = load_inline(name='e', cpp_sources=[a, b], functions=['twice'])\n";
  const FileResult r = analyze_source("sub.py", py, AnalysisContext{});
  const auto& m = r.metrics["maintainability"];
  int twice_line = 0, helper_cc = 0;
  for (const auto& fn : m["functions"]) {
    if (fn["name"] == "twice") {
      twice_line = fn["line"];
      EXPECT_EQ(fn["cyclomatic"], 2);
      EXPECT_EQ(fn["counted_by"], "clang");
    }
    if (fn["name"] == "helper") helper_cc = fn["cyclomatic"];
  }
  EXPECT_EQ(twice_line, 5);
  EXPECT_EQ(helper_cc, 3);
  ASSERT_EQ(m["modules"].size(), 2u);
  EXPECT_EQ(m["modules"][0]["cyclomatic"], 2);  // each joined string on its own
  EXPECT_EQ(m["modules"][1]["cyclomatic"], 3);
  EXPECT_EQ(m["modules"][0]["counted_by"], "clang");
  EXPECT_EQ(m["modules"][1]["counted_by"], "clang");
}

#endif  // KGATE_HAVE_CLANG

}  // namespace
}  // namespace kgate::cuda
