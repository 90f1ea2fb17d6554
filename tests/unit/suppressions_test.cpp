// Suppression markers: both forms, both comment styles, counting, and the three meta findings.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyzers/core/suppressions.h"

namespace kgate {
namespace {

Diagnostic finding(const std::string& rule, uint32_t line) {
  Diagnostic d;
  d.rule = rule;
  d.path = "s.py";
  d.span = {line, 1, line, 2};
  return d;
}

bool known(std::string_view id) {
  return id == "torch-function-in-forward" || id == "side-stream" || id == "filesystem-io";
}
bool ran(std::string_view id) { return id != "filesystem-io"; }

std::vector<std::string> meta_rules(const SuppressionResult& result) {
  std::vector<std::string> ids;
  for (const auto& d : result.meta) ids.push_back(d.rule);
  return ids;
}

TEST(Suppressions, ParsesBothFormsAndBothCommentStyles) {
  const SourceFile file(
      "s.py",
      "x = torch.mm(a, b)  # kgate: ignore[torch-function-in-forward] reference path for tiny shapes\n"
      "# kgate: ignore-next-line[side-stream, torch-function-in-forward] -- overlap is intended\n"
      "s = torch.cuda.Stream()\n"
      "cuda = '''cudaStreamCreate(&s); // kgate: ignore[side-stream]: the copy engine\n"
      "'''\n"
      "y = 1  # a normal comment mentioning kgate: nothing\n");
  const auto all = parse_suppressions(file);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].target_line, 1u);
  EXPECT_FALSE(all[0].next_line);
  EXPECT_EQ(all[0].rules, std::vector<std::string>{"torch-function-in-forward"});
  EXPECT_EQ(all[0].reason, "reference path for tiny shapes");
  EXPECT_EQ(all[0].span.line, 1u);
  EXPECT_EQ(all[0].span.col, 21u);
  EXPECT_EQ(all[1].target_line, 3u);
  EXPECT_TRUE(all[1].next_line);
  EXPECT_EQ(all[1].rules, (std::vector<std::string>{"side-stream", "torch-function-in-forward"}));
  EXPECT_EQ(all[1].reason, "overlap is intended");
  EXPECT_EQ(all[2].target_line, 4u);
  EXPECT_EQ(all[2].rules, std::vector<std::string>{"side-stream"});
  EXPECT_EQ(all[2].reason, "the copy engine");
}

TEST(Suppressions, RemovesAndCountsMatchingFindingsOnly) {
  const SourceFile file("s.py",
                        "x = torch.mm(a, b)  # kgate: ignore[torch-function-in-forward] reference path\n"
                        "# kgate: ignore-next-line[side-stream] intended\n"
                        "s = torch.cuda.Stream(); torch.add(x, x)\n");
  std::vector<Diagnostic> findings = {finding("torch-function-in-forward", 1), finding("torch-function-in-forward", 1),
                                      finding("side-stream", 3), finding("torch-function-in-forward", 3),
                                      finding("side-stream", 1)};
  const auto result = apply_suppressions(file, findings, known, ran);
  EXPECT_EQ(result.suppressed, 3u);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].rule, "torch-function-in-forward");
  EXPECT_EQ(findings[0].span.line, 3u);  // another rule on the suppressed line stays
  EXPECT_EQ(findings[1].rule, "side-stream");
  EXPECT_EQ(findings[1].span.line, 1u);  // the same rule on another line stays
  EXPECT_TRUE(result.meta.empty());
}

TEST(Suppressions, MissingReasonIsAnErrorButStillSuppresses) {
  const SourceFile file("s.py",
                        "x = torch.mm(a, b)  # kgate: ignore[torch-function-in-forward]\n"
                        "y = torch.mm(a, b)  # kgate: ignore[torch-function-in-forward]  --  \n");
  std::vector<Diagnostic> findings = {finding("torch-function-in-forward", 1), finding("torch-function-in-forward", 2)};
  const auto result = apply_suppressions(file, findings, known, ran);
  EXPECT_EQ(result.suppressed, 2u);
  EXPECT_EQ(meta_rules(result), (std::vector<std::string>{"suppression-missing-reason", "suppression-missing-reason"}));
  EXPECT_EQ(result.meta[0].severity, Severity::Error);
  EXPECT_EQ(result.meta[0].span.line, 1u);
  EXPECT_EQ(result.meta[0].path, "s.py");
}

TEST(Suppressions, UnknownRuleIsAnError) {
  const SourceFile file("s.py",
                        "x = 1  # kgate: ignore[no-such-rule, side-stream] because\n"
                        "y = 2  # kgate: ignore because I say so\n");
  std::vector<Diagnostic> findings = {finding("side-stream", 1)};
  const auto result = apply_suppressions(file, findings, known, ran);
  EXPECT_EQ(result.suppressed, 1u);
  EXPECT_EQ(meta_rules(result), (std::vector<std::string>{"suppression-unknown-rule", "suppression-unknown-rule"}));
  EXPECT_NE(result.meta[0].message.find("no-such-rule"), std::string::npos);
  EXPECT_NE(result.meta[1].message.find("names no rule"), std::string::npos);
}

TEST(Suppressions, UnusedIsAWarningOnlyForRulesThatRan) {
  const SourceFile file("s.py",
                        "x = 1  # kgate: ignore[side-stream] stale\n"
                        "y = 2  # kgate: ignore[filesystem-io] the rule is disabled in this run\n");
  std::vector<Diagnostic> findings;
  const auto result = apply_suppressions(file, findings, known, ran);
  EXPECT_EQ(result.suppressed, 0u);
  ASSERT_EQ(meta_rules(result), std::vector<std::string>{"suppression-unused"});
  EXPECT_EQ(result.meta[0].severity, Severity::Warning);
  EXPECT_EQ(result.meta[0].span.line, 1u);
}

TEST(Suppressions, MetaFindingsAreNotThemselvesSuppressible) {
  const SourceFile file("s.py", "x = 1  # kgate: ignore[suppression-unused, side-stream] stale\n");
  std::vector<Diagnostic> findings;
  const auto with_meta_known = [](std::string_view id) { return known(id) || id == "suppression-unused"; };
  const auto result = apply_suppressions(file, findings, with_meta_known, ran);
  // side-stream is unused; the marker naming suppression-unused does not hide that finding.
  const auto ids = meta_rules(result);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "suppression-unused"), 2);
}

TEST(Suppressions, NextLineTargetsOnlyTheNextLine) {
  const SourceFile file("s.py", "# kgate: ignore-next-line[side-stream] intended\n\ns = torch.cuda.Stream()\n");
  std::vector<Diagnostic> findings = {finding("side-stream", 3)};
  const auto result = apply_suppressions(file, findings, known, ran);
  EXPECT_EQ(result.suppressed, 0u);
  EXPECT_EQ(findings.size(), 1u);
  EXPECT_EQ(meta_rules(result), std::vector<std::string>{"suppression-unused"});
}

TEST(Suppressions, LookalikesAreNotMarkers) {
  const SourceFile file(
      "s.py",
      "# kgate: ignored[side-stream] x\n# kgate:ignore-next-lines[side-stream] x\nkgate: ignore[side-stream] x\n");
  EXPECT_TRUE(parse_suppressions(file).empty());
}

// Found by fuzzing (tests/fuzz/regressions/suppressions/): the marker was matched with std::regex,
// whose libstdc++ executor recurses per character, so a long reason overflowed the stack.
TEST(Suppressions, LongMarkerLineParsesWithoutRecursion) {
  const std::string reason(1 << 20, 'r');
  const SourceFile file("s.py", "x = 1  # kgate: ignore[side-stream, filesystem-io] " + reason + "\n");
  const auto parsed = parse_suppressions(file);
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].rules, (std::vector<std::string>{"side-stream", "filesystem-io"}));
  EXPECT_EQ(parsed[0].reason, reason);
  EXPECT_EQ(parsed[0].span.col, 8u);
}

// The scanner keeps the regex's edges: the first opener that starts a marker wins, a form must end
// at a non-word character, an unclosed list is part of the reason, and `\r` ends the reason.
TEST(Suppressions, MarkerEdgesMatchTheGrammar) {
  const SourceFile file("s.py",
                        "a  # note # kgate: ignore[side-stream] why\n"
                        "b  # kgate: ignore-next-lines[side-stream] why\n"
                        "c  ///kgate:ignore[side-stream reason\n"
                        "d  # kgate: ignore-next-line[side-stream] why\rtail\n");
  const auto parsed = parse_suppressions(file);
  ASSERT_EQ(parsed.size(), 3u);
  EXPECT_EQ(parsed[0].span.col, 11u);
  EXPECT_EQ(parsed[0].reason, "why");
  EXPECT_FALSE(parsed[1].has_rule_list);
  EXPECT_EQ(parsed[1].span.col, 5u);
  EXPECT_EQ(parsed[1].reason, "[side-stream reason");
  EXPECT_TRUE(parsed[2].next_line);
  EXPECT_EQ(parsed[2].target_line, 5u);
  EXPECT_EQ(parsed[2].reason, "why");
}

}  // namespace
}  // namespace kgate
