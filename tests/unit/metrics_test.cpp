// Maintainability metrics: the counting rules of docs/metrics.md on small sources, with the expected
// Python numbers taken from radon 6.0.1 on the same text, and metric thresholds in rule conditions.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "analyzers/core/facts.h"
#include "analyzers/metrics/python_lines.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/engine.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {
namespace {

const char* kPython = R"(import torch


def f(a, b, c=1 if True else 2):
    """Docstring
    on two lines."""
    # a comment
    x = a + b * 2; y = -a
    if x > y and not b:
        return {"k": x}
    for i in range(3):
        x += i
    else:
        y = x if x < 1.0 else 1
    return x == y != a.b


class M(torch.nn.Module):
    def forward(self, x):
        assert x is not None
        return [v for v in x if v or x]
)";

const nlohmann::json& function_named(const nlohmann::json& maintainability, const std::string& name) {
  for (const auto& f : maintainability["functions"])
    if (f["name"] == name) return f;
  static const nlohmann::json none;
  return none;
}

TEST(PythonMetrics, FunctionsMatchRadon) {
  const FileResult r = analyze_source("snippet.py", kPython, AnalysisContext{});
  const auto& m = r.metrics["maintainability"];
  const auto& f = function_named(m, "f");
  ASSERT_TRUE(f.is_object());
  EXPECT_EQ(f["cyclomatic"], 6);  // if, and, for, for-else, conditional expression; not the default's
  EXPECT_EQ(f["operators_distinct"], 9);
  EXPECT_EQ(f["operands_distinct"], 10);
  EXPECT_EQ(f["operators_total"], 10);
  EXPECT_EQ(f["operands_total"], 17);
  const auto& forward = function_named(m, "forward");
  EXPECT_EQ(forward["cyclomatic"], 5);  // assert, comprehension for and if, or
  EXPECT_EQ(forward["operators_distinct"], 2);
  EXPECT_EQ(forward["operands_distinct"], 3);
  EXPECT_EQ(forward["operators_total"], 2);
  EXPECT_EQ(forward["operands_total"], 4);
  EXPECT_EQ(forward["line"], 19);
}

TEST(PythonMetrics, AnAssertIsOneDecisionWhateverItsTest) {
  // radon's visit_Assert adds 1 and does not walk the test: its and/or/if-else are no decisions.
  const FileResult r = analyze_source("assert.py", R"(
def g(x):
    assert x is not None and x > 0 or (x if x else 1) < -1
    return x
)",
                                      AnalysisContext{});
  EXPECT_EQ(function_named(r.metrics["maintainability"], "g")["cyclomatic"], 2);
}

TEST(PythonMetrics, FileMatchesRadon) {
  const FileResult r = analyze_source("snippet.py", kPython, AnalysisContext{});
  const auto& file = r.metrics["maintainability"]["file"];
  EXPECT_EQ(file["cyclomatic"], 11);
  EXPECT_EQ(file["operators_distinct"], 11);
  EXPECT_EQ(file["operands_distinct"], 13);
  EXPECT_EQ(file["operators_total"], 12);
  EXPECT_EQ(file["operands_total"], 21);
  EXPECT_NEAR(file["halstead_volume"].get<double>(), 151.30376252379818, 1e-9);
  EXPECT_EQ(file["lloc"], 17);
  EXPECT_EQ(file["sloc"], 14);
  EXPECT_EQ(file["comment_lines"], 3);  // one comment, two docstring lines
  EXPECT_NEAR(file["mi_comments"].get<double>(), 80.35547488757044, 1e-9);
}

TEST(PythonLines, GroupsFollowRadon) {
  // A bracket spans lines; a one-line string statement is neither code nor multi; `if x: y` is 2 LLOC.
  const auto groups = metrics::python_line_groups("x = f(\n  1,\n  2)\n'one line'\nif x: y = {1: 2}\n# c\n");
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].last_line, 3u);
  EXPECT_EQ(groups[0].sloc, 3);
  EXPECT_EQ(groups[0].lloc, 1);
  EXPECT_EQ(groups[1].sloc, 0);
  EXPECT_EQ(groups[1].multi, 0);
  EXPECT_EQ(groups[2].lloc, 2);
  EXPECT_EQ(groups[3].comments, 1);
  EXPECT_EQ(groups[3].sloc, 0);
}

TEST(CppMetrics, KernelCountsLizardDecisionsAndTokens) {
  const char* cu =
      "__global__ void k(const float* x, float* y, int n) {\n"
      "  int i = blockIdx.x;  // index\n"
      "  if (i < n && x[i] > 0) y[i] = x[i] ? 1 : 0;\n"
      "#if 1\n"
      "  for (int j = 0; j < n; ++j) { switch (j) { case 0: break; default: break; } }\n"
      "#endif\n"
      "}\n";
  const FileResult r = analyze_source("k.cu", cu, AnalysisContext{});
  const auto& k = function_named(r.metrics["maintainability"], "k");
  ASSERT_TRUE(k.is_object());
  EXPECT_EQ(k["cyclomatic"], 7);  // 1 + if, &&, ?:, #if, for, case (not default)
  EXPECT_EQ(k["sloc"], 7);
  EXPECT_EQ(k["comment_lines"], 1);
  EXPECT_EQ(k["language"], "cuda");
  EXPECT_GT(k["halstead_volume"].get<double>(), 0.0);
}

TEST(CppMetrics, HalsteadTokensAndLogicalLines) {
  // Operators: int int int ( , { return + ;  (closing brackets are not counted) -> 9 total, 7 distinct.
  // Operands: add a b a b -> 5 total, 3 distinct. LLOC: the definition and the return statement.
  const FileResult r = analyze_source("add.cu", "int add(int a, int b) { return a + b; }\n", AnalysisContext{});
  const auto& add = function_named(r.metrics["maintainability"], "add");
  ASSERT_TRUE(add.is_object());
  EXPECT_EQ(add["operators_total"], 9);
  EXPECT_EQ(add["operators_distinct"], 7);
  EXPECT_EQ(add["operands_total"], 5);
  EXPECT_EQ(add["operands_distinct"], 3);
  EXPECT_EQ(add["lloc"], 2);
  EXPECT_EQ(add["sloc"], 1);
  EXPECT_EQ(add["cyclomatic"], 1);
  EXPECT_NEAR(add["halstead_volume"].get<double>(), 14 * std::log2(10.0), 1e-9);
  EXPECT_NEAR(add["halstead_difficulty"].get<double>(), 7.0 / 2 * 5 / 3, 1e-12);
}

TEST(CppMetrics, EmbeddedFunctionIsReportedAtItsPythonLine) {
  const std::string py =
      "import torch\n"
      "from torch.utils.cpp_extension import load_inline\n"
      "src = r'''\n"
      "#include <torch/extension.h>\n"
      "torch::Tensor twice(torch::Tensor x) {\n"
      "  if (x.numel() == 0) return x;\n"
      "  return x;\n"
      "}\n"
      "'''\n"
      "ext = load_inline(name='e', cpp_sources=src, functions=['twice'])\n";
  const FileResult r = analyze_source("sub.py", py, AnalysisContext{});
  const auto& twice = function_named(r.metrics["maintainability"], "twice");
  ASSERT_TRUE(twice.is_object());
  EXPECT_EQ(twice["line"], 5);
  EXPECT_EQ(twice["cyclomatic"], 2);
  EXPECT_EQ(r.metrics["maintainability"]["modules"].size(), 1u);
}

TEST(MetricThresholds, AboveAndBelowCompareNumbers) {
  FactSet facts;
  facts.modules.push_back(Module{});
  Function f;
  f.name = f.qualname = "big";
  f.metrics.measured = true;
  f.metrics.cyclomatic = 16;
  f.metrics.mi_comments = 19.5;
  facts.functions.push_back(f);
  auto holds = [&](const char* field, Threshold::Op op, double bound) {
    Condition c{field, Threshold{op, bound}};
    return condition_holds(facts, FactKind::Function, 0, c);
  };
  EXPECT_TRUE(holds("cyclomatic", Threshold::Op::Above, 15));
  EXPECT_FALSE(holds("cyclomatic", Threshold::Op::Above, 16));
  EXPECT_TRUE(holds("cyclomatic", Threshold::Op::AtLeast, 16));
  EXPECT_TRUE(holds("mi_comments", Threshold::Op::Below, 20));
  EXPECT_FALSE(holds("mi_comments", Threshold::Op::AtMost, 19));
  facts.functions[0].metrics.measured = false;  // unmeasured: no field, no match
  EXPECT_FALSE(holds("cyclomatic", Threshold::Op::Above, 0));
}

TEST(MetricThresholds, RuleFileThresholdLoads) {
  const auto schema = JsonSchema::load((std::filesystem::path(KGATE_SOURCE_DIR) / "rules" / "schema.json").string());
  ASSERT_TRUE(schema) << schema.error();
  const auto rule = parse_rule(
      "id: cc-above-3\nseverity: warning\ntechniques: []\nsummary: s\nmessage: \"{qualname} {cyclomatic}\"\nrationale: "
      "r\n"
      "match:\n  fact: function\n  where: { cyclomatic: { above: 3 } }\n",
      "cc-above-3.yaml", *schema);
  ASSERT_TRUE(rule) << rule.error();
  const auto& condition = rule->match[0].where[0];
  ASSERT_TRUE(std::holds_alternative<Threshold>(condition.expected));
  EXPECT_EQ(std::get<Threshold>(condition.expected).value, 3.0);
  const auto bad = parse_rule(
      "id: cc-bad\nseverity: warning\ntechniques: []\nsummary: s\nmessage: m\nrationale: r\n"
      "match:\n  fact: function\n  where: { cyclomatic: { above: 3, below: 9 } }\n",
      "cc-bad.yaml", *schema);
  EXPECT_FALSE(bad);  // one bound per condition
}

}  // namespace
}  // namespace kgate
