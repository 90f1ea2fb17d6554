// The per-file pipeline through paths that need no language extractor: ingest refusals, unknown
// formats, raw CUDA files, pipeline findings under config and policy, suppressions, and batches.
#include <gtest/gtest.h>

#include "analyzers/core/config.h"
#include "analyzers/pipeline/batch.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

using kgate::testing::ScratchDir;

Rule pipeline_rule(const std::string& id, Severity severity, const std::string& check) {
  Rule rule;
  rule.id = id;
  rule.severity = severity;
  rule.check = check;
  rule.summary = rule.message = rule.rationale = "x";
  return rule;
}

class Pipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    rules.add(pipeline_rule("input-empty", Severity::Warning, "ingest"));
    rules.add(pipeline_rule("input-binary", Severity::Error, "ingest"));
    rules.add(pipeline_rule("input-unknown-format", Severity::Error, "ingest"));
    rules.add(pipeline_rule("suppression-unknown-rule", Severity::Error, "suppressions"));
    rules.add(pipeline_rule("suppression-unused", Severity::Warning, "suppressions"));
    rules.add(pipeline_rule("suppression-missing-reason", Severity::Error, "suppressions"));
    context.rules = &rules;
    context.policy = &policy;
    // Without clang_init() the C++ facts come from tree-sitter, which warns once per file.
    config.disable = {"engine-fallback"};
    context.config = &config;
  }
  RuleSet rules;
  Policy policy;
  Config config;
  AnalysisContext context;
};

TEST_F(Pipeline, RawCudaFileIsAnalysedWithMetrics) {
  const FileResult result = analyze_source("k.cu", "__global__ void k() {}\n// second line\n", context);
  EXPECT_EQ(result.format, SubmissionFormat::RawCuda);
  EXPECT_FALSE(result.rejected);
  EXPECT_TRUE(result.findings.empty());
  EXPECT_EQ(result.metrics["lines"], 2);
  EXPECT_EQ(result.metrics["bytes"], 38);
  EXPECT_EQ(result.metrics["functions"], 1);  // the kernel, from the C++ analyzer
}

TEST_F(Pipeline, UnknownExtensionIsAnError) {
  const FileResult result = analyze_source("notes.txt", "hello\n", context);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "input-unknown-format");
  EXPECT_TRUE(result.rejected);
  EXPECT_EQ(result.format, SubmissionFormat::Unknown);
  EXPECT_EQ(result.findings[0].fingerprint.size(), 16u);
}

TEST_F(Pipeline, IngestFindingsFollowConfigAndPolicy) {
  FileResult result = analyze_source("e.cu", "", context);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "input-empty");
  EXPECT_FALSE(result.rejected);  // a warning does not reject

  config.severity = {{"input-empty", Severity::Error}};
  result = analyze_source("e.cu", "", context);
  EXPECT_EQ(result.findings.at(0).severity, Severity::Error);
  EXPECT_TRUE(result.rejected);

  config.disable = {"input-empty", "engine-fallback"};
  EXPECT_TRUE(analyze_source("e.cu", "", context).findings.empty());

  // Fixture mode always shows input problems: a fixture that cannot be read tests nothing.
  context.only_rules = {"suppression-unused"};
  EXPECT_EQ(analyze_source("e.cu", "", context).findings.size(), 1u);
}

TEST_F(Pipeline, BinaryFileIsRejected) {
  const FileResult result = analyze_source("b.cu",
                                           std::string("\x7f"
                                                       "ELF\0\0\0",
                                                       7),
                                           context);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "input-binary");
  EXPECT_TRUE(result.rejected);
}

TEST_F(Pipeline, SuppressionFindingsInEmbeddedStyleComments) {
  const FileResult result = analyze_source("s.cu",
                                           "int a;  // kgate: ignore[no-such-rule] why\n"
                                           "int b;  // kgate: ignore[input-binary]\n",
                                           context);
  ASSERT_EQ(result.findings.size(), 3u);
  EXPECT_EQ(result.findings[0].rule, "suppression-unknown-rule");
  EXPECT_EQ(result.findings[0].span.line, 1u);
  EXPECT_EQ(result.findings[1].rule, "suppression-missing-reason");
  EXPECT_EQ(result.findings[2].rule, "suppression-unused");
  EXPECT_EQ(result.findings[2].severity, Severity::Warning);
  EXPECT_TRUE(result.rejected);
}

TEST_F(Pipeline, MetaFindingsRespectOnlyMode) {
  context.only_rules = {"suppression-unused"};
  const FileResult result = analyze_source("s.cu", "int a;  // kgate: ignore[no-such-rule] why\n", context);
  EXPECT_TRUE(result.findings.empty());
}

TEST_F(Pipeline, CppEngineFindingsFollowTheConfig) {
  config.disable.clear();
  const FileResult result = analyze_source("k.cu", "__global__ void k() {}\n", context);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "engine-fallback");
  EXPECT_EQ(result.findings[0].severity, Severity::Warning);
  context.only_rules = {"suppression-unused"};  // not an input problem: fixture mode hides it
  EXPECT_TRUE(analyze_source("k.cu", "__global__ void k() {}\n", context).findings.empty());
}

TEST_F(Pipeline, WorksWithoutRulesOrPolicy) {
  const AnalysisContext bare;
  const FileResult result = analyze_source("k.cu", "int x;\n", bare);
  EXPECT_FALSE(result.rejected);
  EXPECT_EQ(result.format, SubmissionFormat::RawCuda);
}

TEST(Batch, DiscoversSortedFilesSkippingHiddenAndExcluded) {
  ScratchDir dir;
  dir.write("b.cu", "int b;\n");
  dir.write("a/z.py", "x = 1\n");
  dir.write("a/notes.md", "not analysed\n");
  dir.write(".git/hooks/x.py", "hidden\n");
  dir.write("build/gen.cu", "excluded\n");
  const auto files = discover_files({dir.path().string(), (dir.path() / "a/notes.md").string()},
                                    [](const std::string& path) { return path.find("/build") != std::string::npos; });
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], (dir.path() / "a/z.py").string());
  EXPECT_EQ(files[1], (dir.path() / "b.cu").string());
  EXPECT_EQ(files[2], (dir.path() / "a/notes.md").string());  // named explicitly: kept
}

TEST(Batch, ThreadPoolKeepsInputOrder) {
  ScratchDir dir;
  AnalysisContext context;
  std::vector<BatchItem> items;
  for (int i = 0; i < 40; ++i) {
    const auto file = dir.write("f" + std::to_string(i) + ".cu", std::string(static_cast<size_t>(i + 1), '\n'));
    items.push_back({file.string(), &context});
  }
  const auto results = analyze_batch(items, 4);
  ASSERT_EQ(results.size(), items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(results[i].path, items[i].path);
    EXPECT_EQ(results[i].metrics["lines"], i + 1);
  }
}

}  // namespace
}  // namespace kgate
