// Emitters: the text lines and summary, the JSON object of docs/cli.md, and the SARIF 2.1.0 shape.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "analyzers/report/report.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {
namespace {

std::vector<FileResult> sample_results() {
  FileResult bad;
  bad.path = "subs/cheat.py";
  bad.format = SubmissionFormat::KernelBenchCuda;
  bad.rejected = true;
  bad.suppressed = 2;
  Diagnostic error;
  error.rule = "torch-function-in-forward";
  error.severity = Severity::Error;
  error.message = "forward computes with torch.mm";
  error.path = bad.path;
  error.span = {12, 9, 12, 17};
  error.fingerprint = "0123456789abcdef";
  error.engine = "tree-sitter-python";
  Diagnostic warning = error;
  warning.rule = "host-readback-in-forward";
  warning.severity = Severity::Warning;
  warning.message = "forward reads back with .item()";
  warning.span = {14, 5, 14, 11};
  bad.findings = {error, warning};
  bad.verdict = "reject";
  bad.metrics = {{"lines", 40}};

  FileResult good;
  good.path = "subs/good dir/ok.py";
  good.format = SubmissionFormat::KernelBenchTriton;
  good.metrics = {{"lines", 10}};
  return {bad, good};
}

TEST(TextReport, GccStyleLinesThenSummaryAndPerRuleTable) {
  std::ostringstream out;
  write_text(out, sample_results());
  const std::string text = out.str();
  EXPECT_NE(text.find("subs/cheat.py:12:9: error: forward computes with torch.mm [torch-function-in-forward]\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("subs/cheat.py:14:5: warning: forward reads back with .item() [host-readback-in-forward]\n"),
            std::string::npos);
  EXPECT_NE(text.find("2 files checked, 1 rejected; 1 error, 1 warning, 0 notes; 2 suppressed"), std::string::npos)
      << text;
  EXPECT_NE(text.find("torch-function-in-forward      1"), std::string::npos) << text;
}

TEST(TextReport, CleanRunHasNoTable) {
  std::ostringstream out;
  write_text(out, {sample_results()[1]});
  EXPECT_EQ(out.str(), "\nkgate: 1 file checked, 0 rejected; 0 errors, 0 warnings, 0 notes; 0 suppressed\n");
}

TEST(JsonReport, MatchesTheDesignContract) {
  const nlohmann::json json = to_json(sample_results());
  ASSERT_TRUE(json.contains("files"));
  ASSERT_EQ(json["files"].size(), 2u);
  const auto& file = json["files"][0];
  EXPECT_EQ(file["path"], "subs/cheat.py");
  EXPECT_EQ(file["format"], "kernelbench-cuda");
  EXPECT_EQ(file["verdict"], "reject");
  EXPECT_EQ(json["files"][1]["verdict"], "pass");
  EXPECT_EQ(file["metrics"]["lines"], 40);
  const auto& finding = file["findings"][0];
  for (const char* key : {"rule", "severity", "message", "line", "col", "end_line", "end_col", "fingerprint", "engine"})
    EXPECT_TRUE(finding.contains(key)) << key;
  EXPECT_EQ(finding.size(), 9u);
  EXPECT_EQ(finding["line"], 12);
  EXPECT_EQ(finding["severity"], "error");
  EXPECT_EQ(json["summary"],
            (nlohmann::json{{"files", 2}, {"rejected", 1}, {"unjudged", 0}, {"not_a_submission", 0}, {"findings", 2}}));
}

TEST(SarifReport, HasTheSarif210Shape) {
  RuleSet rules;
  Rule rule;
  rule.id = "torch-function-in-forward";
  rule.summary = "forward calls a PyTorch compute op";
  rule.rationale = "F1: the baseline wrapper.";
  rule.techniques = {"F1"};
  rules.add(rule);
  const nlohmann::json sarif = to_sarif(sample_results(), &rules, "1.2.3", "/work");
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_TRUE(sarif["$schema"].get<std::string>().find("sarif") != std::string::npos);
  ASSERT_EQ(sarif["runs"].size(), 1u);
  const auto& run = sarif["runs"][0];
  const auto& driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"], "kgate");
  EXPECT_EQ(driver["version"], "1.2.3");
  ASSERT_EQ(driver["rules"].size(), 2u);  // the rule set's rule plus a stub for a rule it lacks
  const auto& descriptor = driver["rules"][0];
  EXPECT_EQ(descriptor["id"], "torch-function-in-forward");
  EXPECT_EQ(descriptor["shortDescription"]["text"], "forward calls a PyTorch compute op");
  EXPECT_EQ(descriptor["fullDescription"]["text"], "F1: the baseline wrapper.");
  EXPECT_NE(descriptor["help"]["text"].get<std::string>().find("F1"), std::string::npos);
  EXPECT_EQ(descriptor["properties"]["techniques"], nlohmann::json::array({"F1"}));
  EXPECT_EQ(driver["rules"][1]["id"], "host-readback-in-forward");

  ASSERT_EQ(run["results"].size(), 2u);
  const auto& result = run["results"][0];
  EXPECT_EQ(result["ruleId"], "torch-function-in-forward");
  EXPECT_EQ(result["ruleIndex"], 0);
  EXPECT_EQ(result["level"], "error");
  EXPECT_EQ(result["message"]["text"], "forward computes with torch.mm");
  const auto& location = result["locations"][0]["physicalLocation"];
  EXPECT_EQ(location["artifactLocation"]["uri"], "subs/cheat.py");
  EXPECT_EQ(location["region"],
            (nlohmann::json{{"startLine", 12}, {"startColumn", 9}, {"endLine", 12}, {"endColumn", 17}}));
  EXPECT_EQ(result["partialFingerprints"]["primaryLocationLineHash"], "0123456789abcdef");
  EXPECT_EQ(run["results"][1]["level"], "warning");
  EXPECT_EQ(run["results"][1]["ruleIndex"], 1);
}

TEST(SarifReport, UrisAreRelativeAndEncoded) {
  EXPECT_EQ(sarif_uri("/work/repo/a b/x#1.py", "/work/repo"), "a%20b/x%231.py");
  EXPECT_EQ(sarif_uri("./sub/../k.cu", "/anywhere"), "k.cu");
  // Outside the invocation directory: an absolute file URI, never a "../" walk.
  EXPECT_EQ(sarif_uri("/elsewhere/k.cu", "/work/repo"), "file:///elsewhere/k.cu");
  EXPECT_EQ(sarif_uri("/work/repo/./sub//k.cu", "/work/repo/"), "sub/k.cu");
}

TEST(SarifReport, HelpHasTextAndMarkdownFromTheRuleFile) {
  RuleSet rules;
  Rule rule;
  rule.id = "torch-function-in-forward";
  rule.summary = "forward calls a PyTorch compute op";
  rule.rationale = "The baseline does the work.\n";  // YAML's folded scalar ends in a newline
  rule.techniques = {"F1", "F3"};
  rule.languages = {"python"};
  rules.add(rule);
  const nlohmann::json sarif = to_sarif({}, &rules, "1.2.3", "/work");
  const auto& descriptor = sarif["runs"][0]["tool"]["driver"]["rules"][0];
  EXPECT_EQ(descriptor["fullDescription"]["text"], "The baseline does the work.");
  const std::string text = descriptor["help"]["text"];
  const std::string markdown = descriptor["help"]["markdown"];
  EXPECT_NE(text.find("The baseline does the work."), std::string::npos);
  EXPECT_NE(text.find("F1, F3"), std::string::npos);
  EXPECT_NE(text.find("kgate: ignore[torch-function-in-forward] -- "), std::string::npos);
  EXPECT_EQ(markdown.rfind("**forward calls a PyTorch compute op**", 0), 0u);
  EXPECT_NE(markdown.find("| error | F1, F3 | python |"), std::string::npos);
  EXPECT_EQ(descriptor["properties"]["tags"], nlohmann::json::array({"F1", "F3"}));
}

TEST(SarifReport, RelatedLocationsAndEmptyEndColumns) {
  auto results = sample_results();
  Diagnostic& first = results[0].findings[0];
  first.related.push_back({"", {3, 1, 3, 9}, "the kernel is defined here"});
  first.span = {12, 9, 12, 9};  // an empty span has no endColumn (SARIF wants endColumn > startColumn)
  const nlohmann::json sarif = to_sarif(results, nullptr, "1.2.3", "/work");
  const auto& result = sarif["runs"][0]["results"][0];
  EXPECT_FALSE(result["locations"][0]["physicalLocation"]["region"].contains("endColumn"));
  ASSERT_EQ(result["relatedLocations"].size(), 1u);
  const auto& related = result["relatedLocations"][0];
  EXPECT_EQ(related["id"], 0);
  EXPECT_EQ(related["message"]["text"], "the kernel is defined here");
  EXPECT_EQ(related["physicalLocation"]["artifactLocation"]["uri"], "subs/cheat.py");
  EXPECT_EQ(related["physicalLocation"]["region"]["startLine"], 3);
  EXPECT_FALSE(sarif["runs"][0]["results"][1].contains("relatedLocations"));
}

TEST(SarifReport, ColumnsAreCodePointsNotBytes) {
  // SARIF allows only utf16CodeUnits or unicodeCodePoints; findings count bytes.
  const std::string path = ::testing::TempDir() + "kgate_sarif_columns.py";
  const std::string line = "s = '\xc3\xa9\xc3\xa9'; y = torch.mm(a, b)";  // two 2-byte characters before torch
  std::ofstream(path, std::ios::binary) << "import torch\n" << line << "\n";
  FileResult file;
  file.path = path;
  Diagnostic d;
  d.rule = "torch-function-in-forward";
  d.path = path;
  const uint32_t byte_col = static_cast<uint32_t>(line.find("torch") + 1);
  d.span = {2, byte_col, 2, byte_col + 8};
  file.findings = {d};
  const nlohmann::json sarif = to_sarif({file}, nullptr, "1.2.3", ::testing::TempDir());
  EXPECT_EQ(sarif["runs"][0]["columnKind"], "unicodeCodePoints");
  const auto& region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startColumn"], byte_col - 2);
  EXPECT_EQ(region["endColumn"], byte_col + 8 - 2);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kgate
