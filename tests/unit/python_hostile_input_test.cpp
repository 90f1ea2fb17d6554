// Python fact extractor on hostile input: pathological nesting, syntax errors, very long files and
// too many embedded sources. Each gives its input-* diagnostic (once) and never crashes.
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

Extracted extract(const std::string& text, const ingest::Limits& limits = ingest::Limits{}) {
  Extracted out{SourceFile("sub.py", text), {}, {}};
  python::extract_facts(out.file, limits, out.facts, out.diagnostics);
  return out;
}

size_t count_rule(const std::vector<Diagnostic>& diagnostics, std::string_view rule) {
  size_t n = 0;
  for (const auto& d : diagnostics)
    if (d.rule == rule) ++n;
  return n;
}

const Call* by_resolved(const FactSet& facts, std::string_view resolved) {
  for (const auto& c : facts.calls)
    if (c.resolved == resolved) return &c;
  return nullptr;
}

TEST(PythonHostileInput, TenThousandNestedParentheses) {
  std::string text = "import torch\nx = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\n";
  auto r = extract(text);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "input-too-deep");
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
  EXPECT_EQ(r.diagnostics[0].path, "sub.py");
  EXPECT_EQ(r.diagnostics[0].span.line, 1u);
  // The file is not analysed past the host module.
  EXPECT_EQ(r.facts.modules.size(), 1u);
  EXPECT_TRUE(r.facts.imports.empty());
}

TEST(PythonHostileInput, TenThousandNestedLists) {
  std::string text = "x = " + std::string(10000, '[') + std::string(10000, ']') + "\n";
  auto r = extract(text);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "input-too-deep");
  EXPECT_EQ(count_rule(r.diagnostics, "input-parse-error"), 0u);
  EXPECT_TRUE(r.facts.calls.empty());
}

TEST(PythonHostileInput, NestingWithinTheLimitIsAnalysed) {
  std::string text = "import torch\nx = torch.relu(" + std::string(50, '(') + "1" + std::string(50, ')') + ")\n";
  auto r = extract(text);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_NE(by_resolved(r.facts, "torch.relu"), nullptr);
  // The same text with a limit below its depth is refused.
  ingest::Limits tight;
  tight.max_nesting = 20;
  auto refused = extract(text, tight);
  ASSERT_EQ(refused.diagnostics.size(), 1u);
  EXPECT_EQ(refused.diagnostics[0].rule, "input-too-deep");
  EXPECT_NE(refused.diagnostics[0].message.find("20"), std::string::npos);
  EXPECT_TRUE(refused.facts.calls.empty());
}

TEST(PythonHostileInput, SyntaxErrorIsReportedAndTheRestIsStillExtracted) {
  auto r = extract(R"PY(import torch

def f(x):
    return torch.mm(x, x)

def broken(:
    pass

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)
)PY");
  ASSERT_EQ(count_rule(r.diagnostics, "input-parse-error"), 1u);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].span.line, 6u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
  EXPECT_EQ(r.diagnostics[0].engine, "tree-sitter-python");
  const Call* mm = by_resolved(r.facts, "torch.mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->span.line, 4u);
  const Call* relu = by_resolved(r.facts, "torch.relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->span.line, 11u);
  EXPECT_TRUE(relu->reachable);
}

TEST(PythonHostileInput, UnclosedParenthesisReportsItsLine) {
  auto r = extract("import os\n\nos.system(\"ls\"\n");
  ASSERT_EQ(count_rule(r.diagnostics, "input-parse-error"), 1u);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.span.line, 3u);
  EXPECT_EQ(r.facts.imports.size(), 1u);
  EXPECT_EQ(r.facts.imports[0].module, "os");
}

TEST(PythonHostileInput, HundredThousandLinesComplete) {
  std::string text;
  text.reserve(600000);
  for (int i = 0; i < 100000; ++i) text += "x = 1\n";
  text += "import torch\ny = torch.relu(x)\n";
  auto r = extract(text);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.facts.modules.size(), 1u);
  const Call* relu = by_resolved(r.facts, "torch.relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->span.line, 100002u);
  EXPECT_EQ(r.facts.format, SubmissionFormat::PythonOther);
}

TEST(PythonHostileInput, TooManyEmbeddedSources) {
  ingest::Limits limits;
  limits.max_embedded_sources = 2;
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
a = load_inline(name="a", cpp_sources=["int a;", "int b;", "int c;"], cuda_sources=["int d;"])
b = load_inline(name="b", cpp_sources=["int e;"])
)PY",
                   limits);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "input-too-many-sources");
  EXPECT_EQ(r.diagnostics[0].span.line, 2u);
  EXPECT_NE(r.diagnostics[0].message.find('2'), std::string::npos);
  ASSERT_EQ(r.facts.modules.size(), 3u);  // the host and the first two sources
  EXPECT_EQ(r.facts.modules[1].text, "int a;");
  EXPECT_EQ(r.facts.modules[2].text, "int b;");
  EXPECT_EQ(r.facts.extensions.size(), 2u);
}

TEST(PythonHostileInput, EmbeddedSourcesAtTheLimitAreAccepted) {
  ingest::Limits limits;
  limits.max_embedded_sources = 2;
  auto r = extract(R"PY(from torch.utils.cpp_extension import load_inline
a = load_inline(name="a", cpp_sources="int a;", cuda_sources="int d;")
)PY",
                   limits);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.facts.modules.size(), 3u);
}

}  // namespace
}  // namespace kgate
