// Python fact extractor: C++/CUDA sources embedded in load_inline calls. The decoded text, its
// language and extension, the Extension fact, and the source map from decoded bytes back to the host
// .py file (through escapes, concatenation, f-string braces, dedent and join).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/python/python_facts.h"

namespace kgate {
namespace {

struct Extracted {
  SourceFile file;
  FactSet facts;
  std::vector<Diagnostic> diagnostics;
};

Extracted extract(const std::string& text) {
  Extracted out{SourceFile("sub.py", text), {}, {}};
  python::extract_facts(out.file, ingest::Limits{}, out.facts, out.diagnostics);
  return out;
}

// The host .py position of the first `token` in an embedded module, through its source map.
Position host_position(const Extracted& r, const Module& m, std::string_view token) {
  size_t decoded = m.text.find(token);
  EXPECT_NE(decoded, std::string::npos) << token << " not in: " << m.text;
  if (decoded == std::string::npos) return Position{0, 0};
  EXPECT_EQ(m.map.size(), m.text.size());
  uint32_t host = m.map.host_offset(static_cast<uint32_t>(decoded));
  // The host bytes at that offset are the token itself when no escape sits inside it.
  EXPECT_EQ(r.file.text.compare(host, token.size(), token), 0) << "host offset " << host;
  return r.file.lines.position(host);
}

void expect_at(const Extracted& r, const Module& m, std::string_view token, uint32_t line, uint32_t col) {
  Position p = host_position(r, m, token);
  EXPECT_EQ(p.line, line) << token;
  EXPECT_EQ(p.col, col) << token;
}

constexpr const char* kVariables = R"PY(import torch
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor fwd(torch::Tensor a);"
cuda_src = """
#include <torch/extension.h>
torch::Tensor fwd(torch::Tensor a) { return at::matmul(a, a); }
"""
fused = load_inline(name="fused", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["fwd"])

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return fused.fwd(x)
)PY";

TEST(PythonEmbedded, SourcesBoundToVariables) {
  auto r = extract(kVariables);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.facts.modules.size(), 3u);
  EXPECT_EQ(r.facts.modules[0].role, "host");
  EXPECT_TRUE(r.facts.modules[0].map.empty());

  const Module& cpp = r.facts.modules[1];
  EXPECT_EQ(cpp.language, Language::Cpp);
  EXPECT_EQ(cpp.role, "cpp_sources");
  EXPECT_EQ(cpp.extension, 0);
  EXPECT_EQ(cpp.text, "torch::Tensor fwd(torch::Tensor a);");
  expect_at(r, cpp, "fwd", 4, 26);

  const Module& cuda = r.facts.modules[2];
  EXPECT_EQ(cuda.language, Language::Cuda);
  EXPECT_EQ(cuda.role, "cuda_sources");
  EXPECT_EQ(cuda.extension, 0);
  EXPECT_EQ(cuda.text,
            "\n#include <torch/extension.h>\ntorch::Tensor fwd(torch::Tensor a) { return at::matmul(a, a); }\n");
  expect_at(r, cuda, "at::matmul", 7, 45);
  expect_at(r, cuda, "#include", 6, 1);

  ASSERT_EQ(r.facts.extensions.size(), 1u);
  const Extension& ext = r.facts.extensions[0];
  EXPECT_EQ(ext.name, "fused");
  EXPECT_EQ(ext.binding, "fused");
  EXPECT_EQ(ext.loader, "torch.utils.cpp_extension.load_inline");
  EXPECT_EQ(ext.functions, std::vector<std::string>{"fwd"});
  EXPECT_FALSE(ext.sources_unresolved);
  EXPECT_EQ(ext.span.line, 9u);
  EXPECT_EQ(ext.span.col, 9u);

  // fused.fwd(x) in forward: an extension launch and a call.
  ASSERT_EQ(r.facts.launches.size(), 1u);
  EXPECT_EQ(r.facts.launches[0].kind, LaunchKind::Extension);
  EXPECT_EQ(r.facts.launches[0].kernel, "fused.fwd");
  EXPECT_TRUE(r.facts.launches[0].reachable);
  bool call_found = false;
  for (const auto& c : r.facts.calls)
    if (c.resolved == "extension.fused.fwd") {
      call_found = true;
      EXPECT_TRUE(c.reachable);
    }
  EXPECT_TRUE(call_found);
  EXPECT_EQ(r.facts.format, SubmissionFormat::KernelBenchCuda);
}

// Escapes before the token: "\n" and "\t" are two host bytes for one decoded byte each.
constexpr const char* kInlineLiteral = R"PY(import torch.utils.cpp_extension
ext = torch.utils.cpp_extension.load_inline(
    name="ext2",
    cpp_sources="at::Tensor f(at::Tensor a);",
    cuda_sources="""// kernel\n\tint pad;
at::Tensor f(at::Tensor a) {\n\treturn at::matmul(a, a); }
""",
    functions="f",
)
)PY";

TEST(PythonEmbedded, InlineTripleQuotedLiteralWithEscapes) {
  auto r = extract(kInlineLiteral);
  ASSERT_EQ(r.facts.modules.size(), 3u);
  const Module& cuda = r.facts.modules[2];
  EXPECT_EQ(cuda.language, Language::Cuda);
  EXPECT_EQ(cuda.text, "// kernel\n\tint pad;\nat::Tensor f(at::Tensor a) {\n\treturn at::matmul(a, a); }\n");
  expect_at(r, cuda, "at::matmul", 6, 40);
  expect_at(r, cuda, "int pad", 5, 34);
  EXPECT_EQ(cuda.span.line, 5u);
  EXPECT_EQ(cuda.span.col, 18u);
  // The escaped newline itself maps to its backslash.
  size_t nl = cuda.text.find('\n');
  EXPECT_EQ(r.file.lines.position(cuda.map.host_offset(static_cast<uint32_t>(nl))).col, 30u);

  ASSERT_EQ(r.facts.extensions.size(), 1u);
  EXPECT_EQ(r.facts.extensions[0].name, "ext2");
  EXPECT_EQ(r.facts.extensions[0].binding, "ext");
  EXPECT_EQ(r.facts.extensions[0].functions, std::vector<std::string>{"f"});
}

TEST(PythonEmbedded, UnicodeEscapesAndMultibyteCharacters) {
  // "\u00e9" is six host bytes for two decoded bytes; a literal é is two bytes for two.
  auto r = extract(
      "from torch.utils.cpp_extension import load_inline\n"
      "src = \"// \\u00e9 \xc3\xa9\\n\\tat::matmul(a, b);\"\n"
      "m = load_inline(name=\"u\", cpp_sources=src)\n");
  ASSERT_EQ(r.facts.modules.size(), 2u);
  const Module& cpp = r.facts.modules[1];
  EXPECT_EQ(cpp.text, "// \xc3\xa9 \xc3\xa9\n\tat::matmul(a, b);");
  expect_at(r, cpp, "at::matmul", 2, 24);
}

TEST(PythonEmbedded, ListOfStringsGivesOneModuleEach) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
m = load_inline(
    name="lst",
    cpp_sources=["int a;", "int b; at::matmul(a, b);"],
    cuda_sources=["__global__ void k() {}"],
)
)PY");
  ASSERT_EQ(r.facts.modules.size(), 4u);
  EXPECT_EQ(r.facts.modules[1].text, "int a;");
  EXPECT_EQ(r.facts.modules[1].language, Language::Cpp);
  EXPECT_EQ(r.facts.modules[2].text, "int b; at::matmul(a, b);");
  EXPECT_EQ(r.facts.modules[2].language, Language::Cpp);
  EXPECT_EQ(r.facts.modules[3].text, "__global__ void k() {}");
  EXPECT_EQ(r.facts.modules[3].language, Language::Cuda);
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(r.facts.modules[i].extension, 0);
  expect_at(r, r.facts.modules[2], "at::matmul", 4, 36);
  expect_at(r, r.facts.modules[3], "__global__", 5, 20);
  EXPECT_TRUE(r.facts.extensions[0].functions.empty());
}

TEST(PythonEmbedded, ConcatenationOfTwoVariables) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
head = "// head\n"
body = "void g() { at::matmul(x, y); }"
m = load_inline(name="cat", cpp_sources=head + body, functions=["g"])
)PY");
  ASSERT_EQ(r.facts.modules.size(), 2u);
  const Module& cpp = r.facts.modules[1];
  EXPECT_EQ(cpp.text, "// head\nvoid g() { at::matmul(x, y); }");
  expect_at(r, cpp, "at::matmul", 3, 20);
  expect_at(r, cpp, "// head", 2, 9);
  EXPECT_EQ(r.facts.extensions[0].name, "cat");
  EXPECT_EQ(r.facts.extensions[0].functions, std::vector<std::string>{"g"});
}

TEST(PythonEmbedded, FStringWithoutSubstitutionsDecodesDoubledBraces) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
src = f"struct S {{ int v; }}; void h() {{ at::matmul(a, b); }}"
m = load_inline(name="fs", cpp_sources=src)
)PY");
  ASSERT_EQ(r.facts.modules.size(), 2u);
  const Module& cpp = r.facts.modules[1];
  EXPECT_EQ(cpp.text, "struct S { int v; }; void h() { at::matmul(a, b); }");
  expect_at(r, cpp, "at::matmul", 2, 44);
  expect_at(r, cpp, "int v", 2, 21);
  EXPECT_FALSE(r.facts.extensions[0].sources_unresolved);
}

TEST(PythonEmbedded, DoubledBracesInAPlainStringStayDoubled) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
m = load_inline(name="br", cpp_sources="int a[1][1] = {{1}}; at::matmul(a, b);")
)PY");
  ASSERT_EQ(r.facts.modules.size(), 2u);
  EXPECT_EQ(r.facts.modules[1].text, "int a[1][1] = {{1}}; at::matmul(a, b);");
  expect_at(r, r.facts.modules[1], "at::matmul", 2, 62);
}

TEST(PythonEmbedded, RawStringKeepsBackslashes) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
m = load_inline(name="raw", cpp_sources=r"// a\n b\t at::matmul(a, b);")
)PY");
  ASSERT_EQ(r.facts.modules.size(), 2u);
  EXPECT_EQ(r.facts.modules[1].text, "// a\\n b\\t at::matmul(a, b);");
  expect_at(r, r.facts.modules[1], "at::matmul", 2, 54);
}

TEST(PythonEmbedded, TextwrapDedent) {
  auto r = extract(R"PY(import textwrap
from torch.utils.cpp_extension import load_inline
src = textwrap.dedent("""
    int k() {
        return at::matmul(a, b);
    }
""")
m = load_inline(name="dd", cuda_sources=src)
)PY");
  ASSERT_EQ(r.facts.modules.size(), 2u);
  const Module& cuda = r.facts.modules[1];
  EXPECT_EQ(cuda.language, Language::Cuda);
  EXPECT_EQ(cuda.role, "cuda_sources");
  EXPECT_EQ(cuda.text, "\nint k() {\n    return at::matmul(a, b);\n}\n");
  expect_at(r, cuda, "at::matmul", 5, 16);
  expect_at(r, cuda, "int k", 4, 5);
}

TEST(PythonEmbedded, StringJoinOfAList) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
src = "\n".join([
    "int a;",
    "void f() { at::matmul(a, b); }",
])
m = load_inline(name="jn", cpp_sources=src, functions=["f"])
)PY");
  ASSERT_EQ(r.facts.modules.size(), 2u);
  const Module& cpp = r.facts.modules[1];
  EXPECT_EQ(cpp.text, "int a;\nvoid f() { at::matmul(a, b); }");
  expect_at(r, cpp, "at::matmul", 4, 17);
  expect_at(r, cpp, "int a;", 3, 6);
}

TEST(PythonEmbedded, UnfoldableSourceIsUnresolved) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline

def build_source():
    return open("k.cu").read()

m = load_inline(name="dyn", cpp_sources="int a;", cuda_sources=build_source(), functions=["f"])
)PY");
  ASSERT_EQ(r.facts.extensions.size(), 1u);
  EXPECT_TRUE(r.facts.extensions[0].sources_unresolved);
  ASSERT_EQ(r.facts.modules.size(), 2u);  // host + the foldable cpp source
  EXPECT_EQ(r.facts.modules[1].role, "cpp_sources");
  EXPECT_EQ(r.facts.extensions[0].functions, std::vector<std::string>{"f"});
}

TEST(PythonEmbedded, ExtensionBoundToSelf) {
  auto r = extract(R"PY(import torch
from torch.utils.cpp_extension import load_inline

CPP = "torch::Tensor run(torch::Tensor x);"

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline(name="selfext", cpp_sources=CPP, functions=["run"])

    def forward(self, x):
        return self.ext.run(x)
)PY");
  ASSERT_EQ(r.facts.extensions.size(), 1u);
  EXPECT_EQ(r.facts.extensions[0].binding, "self.ext");
  EXPECT_EQ(r.facts.extensions[0].name, "selfext");
  ASSERT_EQ(r.facts.launches.size(), 1u);
  EXPECT_EQ(r.facts.launches[0].kind, LaunchKind::Extension);
  EXPECT_EQ(r.facts.launches[0].kernel, "selfext.run");
  EXPECT_TRUE(r.facts.launches[0].reachable);
  ASSERT_EQ(r.facts.modules.size(), 2u);
  expect_at(r, r.facts.modules[1], "run", 4, 22);
}

// Regression (found by these tests, fixed): `[a] + [b]` (two one-element lists) is not folded: fold_string_list only
// joins lists when one side has more than one element, then falls back to fold_string, which cannot fold lists, so the
// sources are dropped and marked unresolved.
TEST(PythonEmbedded, ConcatenationOfOneElementLists) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
m = load_inline(name="lc", cpp_sources=["int a;"] + ["at::matmul(a, b);"])
)PY");
  EXPECT_FALSE(r.facts.extensions.at(0).sources_unresolved);
  ASSERT_EQ(r.facts.modules.size(), 3u);
  EXPECT_EQ(r.facts.modules[1].text, "int a;");
  EXPECT_EQ(r.facts.modules[2].text, "at::matmul(a, b);");
}

// Regression (found by these tests, fixed): `src += "..."` is not a binding the folder follows, so the source folds to
// its first value only and the appended code (here the at::matmul) silently disappears from the analysed text, without
// sources_unresolved being set.
TEST(PythonEmbedded, AugmentedAssignmentIsNotSilentlyDropped) {
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
src = "int ok;"
src += "at::matmul(a, b);"
m = load_inline(name="aug", cpp_sources=src)
)PY");
  ASSERT_EQ(r.facts.extensions.size(), 1u);
  bool hidden = !r.facts.extensions[0].sources_unresolved;
  for (size_t i = 1; i < r.facts.modules.size(); ++i)
    if (r.facts.modules[i].text.find("at::matmul") != std::string::npos) hidden = false;
  EXPECT_FALSE(hidden) << "the appended source is neither analysed nor reported as unresolved";
}

TEST(PythonEmbedded, CommandLineDefinesOfEachTranslationUnit) {
  auto r = extract(R"(from torch.utils.cpp_extension import load_inline
flags = ["-O3", "-DTILE=32", "-D", "USE_VEC"]
ext = load_inline(name="e", cpp_sources="int f();", cuda_sources="int f() { return TILE; }",
                  functions=["f"], extra_cflags=["--define-macro=HOST_ONLY=1"], extra_cuda_cflags=flags)
)");
  ASSERT_EQ(r.facts.extensions.size(), 1u);
  const Extension& e = r.facts.extensions[0];
  EXPECT_EQ(e.cuda_defines, (std::vector<std::string>{"TILE=32", "USE_VEC"}));
  EXPECT_EQ(e.cpp_defines, (std::vector<std::string>{"HOST_ONLY=1"}));
}

}  // namespace
}  // namespace kgate
