// Rule loading: schema validation, fact-field and check-registry checks, directory rules; policies.
#include <gtest/gtest.h>

#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

using kgate::testing::ScratchDir;

const JsonSchema& schema() {
  static const JsonSchema s = *JsonSchema::load((testing::source_rules_dir() / "schema.json").string());
  return s;
}

const char* kGoodRule = R"(id: torch-function-in-forward
severity: error
languages: [python]
techniques: [F1]
summary: "forward calls a PyTorch compute op"
message: "forward computes with {resolved}: a PyTorch op, not a custom kernel"
match:
  fact: call
  where:
    resolved: ["torch.*"]
    reachable: true
  unless:
    - resolved: ["torch.empty*"]
policy_filter: true
group: torch-call
priority: 10
rationale: >
  F1: baseline wrapper.
)";

std::string error_of(const std::string& yaml) {
  auto rule = parse_rule(yaml, "rules/x/bad.yaml", schema());
  return rule ? std::string() : rule.error();
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(RuleParse, AcceptsTheDocumentedExample) {
  auto rule = parse_rule(kGoodRule, "good.yaml", schema());
  ASSERT_TRUE(rule.has_value()) << rule.error();
  EXPECT_EQ(rule->id, "torch-function-in-forward");
  EXPECT_EQ(rule->severity, Severity::Error);
  EXPECT_EQ(rule->languages, std::vector<std::string>{"python"});
  EXPECT_EQ(rule->techniques, std::vector<std::string>{"F1"});
  ASSERT_EQ(rule->match.size(), 1u);
  EXPECT_EQ(rule->match[0].fact, FactKind::Call);
  ASSERT_EQ(rule->match[0].where.size(), 2u);
  ASSERT_EQ(rule->match[0].unless.size(), 1u);
  EXPECT_FALSE(rule->is_check());
  EXPECT_TRUE(rule->policy_filter);
  EXPECT_EQ(rule->group, "torch-call");
  EXPECT_EQ(rule->priority, 10);
  EXPECT_EQ(rule->rationale, "F1: baseline wrapper.\n");
}

TEST(RuleParse, AcceptsACheckRule) {
  auto rule = parse_rule(
      "id: forward-reaches-no-kernel\nseverity: error\ntechniques: [F1, F2]\nsummary: s\nmessage: m\nrationale: r\n"
      "check: forward-reaches-no-kernel\n",
      "c.yaml", schema());
  ASSERT_TRUE(rule.has_value()) << rule.error();
  EXPECT_TRUE(rule->is_check());
  EXPECT_EQ(rule->check, "forward-reaches-no-kernel");
}

TEST(RuleParse, SchemaRejectsMalformedRulesWithClearMessages) {
  struct Case {
    std::string yaml;
    std::string expected;
  };
  const std::string good = kGoodRule;
  const std::vector<Case> cases = {
      {replace(good, "severity: error", "severity: fatal"), "severity"},
      {replace(good, "summary: \"forward calls a PyTorch compute op\"\n", ""), "summary"},
      {replace(good, "languages: [python]", "languages: [rust]"), "languages"},
      {replace(good, "id: torch-function-in-forward", "id: Torch_Function"), "id"},
      {replace(good, "priority: 10", "priority: high"), "priority"},
      {replace(good, "fact: call", "fact: calls"), "match.fact"},
      {good + "colour: red\n", "colour"},
      {replace(good, "    reachable: true", "    reachable: {a: 1}"), "match.where"},
      {good + "check: forward-reaches-no-kernel\n", "does not match rules/schema.json"},  // both match and check
      {replace(good, "techniques: [F1]", "techniques: [f1]"), "techniques"},
  };
  for (const auto& c : cases) {
    const std::string error = error_of(c.yaml);
    ASSERT_FALSE(error.empty()) << c.yaml;
    EXPECT_NE(error.find("rules/x/bad.yaml"), std::string::npos) << error;
    EXPECT_NE(error.find(c.expected), std::string::npos) << "expected '" << c.expected << "' in:\n" << error;
  }
}

TEST(RuleParse, UnknownFactFieldsAreRejectedWithTheFieldList) {
  const std::string error = error_of(replace(kGoodRule, "    reachable: true", "    reachabel: true"));
  EXPECT_NE(error.find("'reachabel' is not a field of call facts"), std::string::npos) << error;
  EXPECT_NE(error.find("resolved"), std::string::npos) << error;  // the list of valid fields

  const std::string in_unless = error_of(replace(kGoodRule, "    - resolved: [\"torch.empty*\"]", "    - kernel: x"));
  EXPECT_NE(in_unless.find("match.unless[0]: 'kernel' is not a field of call facts"), std::string::npos) << in_unless;

  const std::string in_message = error_of(replace(kGoodRule, "{resolved}:", "{kernel}:"));
  EXPECT_NE(in_message.find("message: {kernel} is not a field"), std::string::npos) << in_message;
}

TEST(RuleParse, UnknownCheckAndMisplacedPolicyFilterAreRejected) {
  const std::string check =
      error_of("id: x\nseverity: error\ntechniques: []\nsummary: s\nmessage: m\nrationale: r\ncheck: no-such-check\n");
  EXPECT_NE(check.find("'no-such-check' is not in the check registry"), std::string::npos) << check;
  const std::string filter = error_of(
      "id: x\nseverity: error\ntechniques: []\nsummary: s\nmessage: m\nrationale: r\npolicy_filter: true\nmatch:\n  "
      "fact: write\n");
  EXPECT_NE(filter.find("policy_filter: applies to call facts only"), std::string::npos) << filter;
}

TEST(RuleParse, MatchAlternatives) {
  auto rule = parse_rule(R"(id: x
severity: error
techniques: []
summary: s
message: "{function} writes or calls {resolved}"
rationale: r
fixture: generated
match:
  - fact: call
    where: {resolved: "os.system"}
  - fact: write
    where: {resolved: "sys.modules[]*"}
    unless:
      - reachable: false
)",
                         "alt.yaml", schema());
  ASSERT_TRUE(rule.has_value()) << rule.error();
  ASSERT_EQ(rule->match.size(), 2u);
  EXPECT_EQ(rule->match[1].fact, FactKind::Write);
  EXPECT_EQ(rule->fixture, "generated");

  // Each alternative must have every field the message names: imports have no `resolved`.
  const std::string error = error_of(R"(id: x
severity: error
techniques: []
summary: s
message: "{resolved}"
rationale: r
match:
  - fact: call
  - fact: import
)");
  EXPECT_NE(error.find("message: {resolved} is not a field of import facts, which match[1] matches"), std::string::npos)
      << error;
  EXPECT_NE(error_of("id: x\nseverity: error\ntechniques: []\nsummary: s\nmessage: m\nrationale: r\nmatch: []\n")
                .find("match"),
            std::string::npos);
  EXPECT_NE(error_of("id: x\nseverity: error\ntechniques: []\nsummary: s\nmessage: m\nrationale: r\nfixture: "
                     "maybe\ncheck: ingest\n")
                .find("fixture"),
            std::string::npos);
}

TEST(RuleParse, InvalidYamlReportsTheLocation) {
  const std::string error = error_of("id: x\nseverity: [error\n");
  EXPECT_NE(error.find("rules/x/bad.yaml:"), std::string::npos) << error;
  EXPECT_NE(error.find("invalid YAML"), std::string::npos) << error;
}

// Found by fuzz_rule_loader (tests/fuzz/regressions/rule_loader/): valijson matched a 30 KB summary
// against its `pattern` with std::regex, which recursed per character until the stack overflowed.
TEST(RuleParse, OverlongStringsAreRejectedBeforeTheSchemaRegexes) {
  const std::string error =
      error_of(replace(kGoodRule, "\"forward calls a PyTorch compute op\"", "\"" + std::string(100000, 's') + "\""));
  EXPECT_NE(error.find("summary: a string of 100000 bytes is longer than the 4096"), std::string::npos) << error;
  EXPECT_TRUE(
      error_of(replace(kGoodRule, "\"forward calls a PyTorch compute op\"", "\"" + std::string(4000, 's') + "\""))
          .empty());
}

TEST(RuleParse, MessagePlaceholders) {
  EXPECT_EQ(message_placeholders("{a} and {b_c} but not {} or {X} or {a b}"), (std::vector<std::string>{"a", "b_c"}));
}

class RuleDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::copy_file(testing::source_rules_dir() / "schema.json", dir.path() / "schema.json");
    dir.write("scope/torch-function-in-forward.yaml", kGoodRule);
    dir.write("scope/torch-function-in-forward.py", "# fixture, not a rule\n");
    dir.write("policies/kernelbench.yaml", "name: kernelbench\ndescription: not a rule\n");
  }
  ScratchDir dir;
};

TEST_F(RuleDirectory, LoadsRulesAndSkipsPoliciesAndFixtures) {
  dir.write("meta/suppression-unused.yaml",
            "id: suppression-unused\nseverity: warning\ntechniques: []\nsummary: s\nmessage: m\nrationale: r\ncheck: "
            "suppressions\n");
  const RuleLoad load = load_rules(dir.path());
  EXPECT_TRUE(load.problems.empty()) << load.problems.front().message;
  ASSERT_EQ(load.rules.size(), 2u);
  EXPECT_EQ(load.rules.rules()[0].id, "suppression-unused");  // sorted by id
  EXPECT_TRUE(load.rules.contains("torch-function-in-forward"));
  EXPECT_FALSE(load.rules.contains("kernelbench"));
}

TEST_F(RuleDirectory, BadFilesAreReportedAndGoodOnesStillLoad) {
  dir.write("scope/wrong-name.yaml", replace(kGoodRule, "id: torch-function-in-forward", "id: some-other-id"));
  dir.write("timing/broken.yaml", "id: broken\nseverity: sometimes\n");
  const RuleLoad load = load_rules(dir.path());
  ASSERT_EQ(load.problems.size(), 2u);
  EXPECT_NE(load.problems[0].message.find("differs from the file name"), std::string::npos) << load.problems[0].message;
  EXPECT_NE(load.problems[1].message.find("timing/broken.yaml"), std::string::npos) << load.problems[1].message;
  EXPECT_EQ(load.rules.size(), 1u);
}

TEST_F(RuleDirectory, DuplicateIdsAreReported) {
  dir.write("timing/torch-function-in-forward.yaml", kGoodRule);
  const RuleLoad load = load_rules(dir.path());
  ASSERT_EQ(load.problems.size(), 1u);
  EXPECT_NE(load.problems[0].message.find("duplicate rule id"), std::string::npos);
}

TEST(RuleDirectoryErrors, MissingDirectoryAndSchema) {
  EXPECT_FALSE(load_rules("/nonexistent/rules").problems.empty());
  ScratchDir dir;
  const RuleLoad load = load_rules(dir.path());
  ASSERT_EQ(load.problems.size(), 1u);
  EXPECT_NE(load.problems[0].message.find("schema"), std::string::npos);
}

TEST(RuleSet, AddRejectsDuplicates) {
  RuleSet set;
  Rule a;
  a.id = "a";
  EXPECT_TRUE(set.add(a));
  EXPECT_FALSE(set.add(a));
  EXPECT_EQ(set.find("a")->id, "a");
  EXPECT_EQ(set.find("b"), nullptr);
}

// ----- policies -----

class PolicyDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::copy_file(testing::source_rules_dir() / "policies/policy.schema.json",
                               dir.path() / "policy.schema.json");
    dir.write("base.yaml",
              "name: base\ndescription: d\ndtypes: [fp32]\nallowed_ops: [\"torch.empty*\", \"torch.Tensor.view\"]\n"
              "severity_overrides: {a: warning, b: note}\ndisabled_rules: [x]\n");
    dir.write("child.yaml",
              "name: child\ndescription: d\nextends: base\nallowed_ops: [\"torch.nn.functional.*\"]\n"
              "forbidden_ops: [torch.nn.functional.relu]\nseverity_overrides: {a: error}\ndtypes: [fp16, bf16]\n");
  }
  ScratchDir dir;
};

TEST_F(PolicyDirectory, ExtendsMergesLists) {
  auto policy = load_policy(dir.path(), "child");
  ASSERT_TRUE(policy.has_value()) << policy.error();
  EXPECT_EQ(policy->chain, (std::vector<std::string>{"base", "child"}));
  EXPECT_TRUE(policy->allows("torch.empty_like"));
  EXPECT_TRUE(policy->allows("torch.nn.functional.gelu"));
  EXPECT_FALSE(policy->allows("torch.nn.functional.relu"));  // forbidden beats allowed
  EXPECT_TRUE(policy->forbids("torch.nn.functional.relu"));
  EXPECT_FALSE(policy->allows("torch.mm"));
  EXPECT_TRUE(policy->disables("x"));
  EXPECT_EQ(policy->severity_override("a"), Severity::Error);  // the child's entry wins
  EXPECT_EQ(policy->severity_override("b"), Severity::Note);
  EXPECT_EQ(policy->dtypes, (std::vector<std::string>{"fp16", "bf16"}));
}

// `x + y` is torch.add and `a @ b` torch.matmul: a policy that names the function names the operator.
TEST_F(PolicyDirectory, OperatorsFollowTheFunctionsTheyStandFor) {
  dir.write("ops.yaml",
            "name: ops\ndescription: d\nallowed_ops: [torch.add, torch.Tensor.view]\nforbidden_ops: [torch.matmul]\n");
  auto policy = load_policy(dir.path(), "ops");
  ASSERT_TRUE(policy.has_value()) << policy.error();
  EXPECT_TRUE(policy->allows("torch.Tensor.__add__"));
  EXPECT_TRUE(policy->allows("torch.Tensor.__radd__"));
  EXPECT_TRUE(policy->allows("torch.Tensor.__iadd__"));
  EXPECT_FALSE(policy->allows("torch.Tensor.__mul__"));
  EXPECT_FALSE(policy->allows("torch.Tensor.__rshift__"));
  EXPECT_TRUE(policy->forbids("operator.matmul"));
  EXPECT_TRUE(policy->forbids("torch.Tensor.__rmatmul__"));
  EXPECT_FALSE(policy->forbids("torch.Tensor.__add__"));
}

TEST_F(PolicyDirectory, ErrorsAreValues) {
  dir.write("loop-a.yaml", "name: loop-a\ndescription: d\nextends: loop-b\n");
  dir.write("loop-b.yaml", "name: loop-b\ndescription: d\nextends: loop-a\n");
  dir.write("orphan.yaml", "name: orphan\ndescription: d\nextends: nowhere\n");
  dir.write("typo.yaml", "name: typo\ndescription: d\nalowed_ops: []\n");
  dir.write("misnamed.yaml", "name: other\ndescription: d\n");
  EXPECT_NE(load_policy(dir.path(), "loop-a").error().find("cycle"), std::string::npos);
  EXPECT_NE(load_policy(dir.path(), "orphan").error().find("unknown policy 'nowhere'"), std::string::npos);
  EXPECT_NE(load_policy(dir.path(), "typo").error().find("alowed_ops"), std::string::npos);
  EXPECT_NE(load_policy(dir.path(), "misnamed").error().find("differs from the file name"), std::string::npos);
  const std::string unknown = load_policy(dir.path(), "nope").error();
  EXPECT_NE(unknown.find("known: base, child"), std::string::npos) << unknown;
  EXPECT_NE(load_policy(dir.path(), "../etc/passwd").error().find("invalid policy name"), std::string::npos);
}

TEST(ShippedPolicies, EveryPolicyLoadsAndTheDefaultsHoldTheirPromises) {
  const auto dir = testing::source_rules_dir() / "policies";
  const auto names = policy_names(dir);
  for (const char* expected :
       {"kernelbench", "repository", "activation", "convolution", "fusion", "index", "linear-algebra", "loss", "math",
        "matrix-multiply", "normalization", "optimizer", "pooling", "quantization", "random", "reduce", "spatial-ops"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  for (const auto& name : names) {
    auto policy = load_policy(dir, name);
    ASSERT_TRUE(policy.has_value()) << policy.error();
    EXPECT_EQ(policy->chain.front(), "kernelbench") << name;
  }
  auto kernelbench = *load_policy(dir, "kernelbench");
  for (const char* allowed : {"torch.empty_like", "torch.zeros", "torch.Tensor.view", "torch.Tensor.contiguous",
                              "torch.Tensor.size", "torch.cuda.current_stream", "torch.Tensor.data_ptr",
                              "torch.Tensor.new_zeros", "torch.arange", "torch.tensor", "torch.cat"})
    EXPECT_TRUE(kernelbench.allows(allowed)) << allowed;
  for (const char* compute : {"torch.matmul", "torch.Tensor.sum", "torch.nn.functional.relu", "torch.Tensor.cpu",
                              "torch.Tensor.item", "torch.cumsum", "operator.matmul", "torch.nn.Linear"})
    EXPECT_FALSE(kernelbench.allows(compute)) << compute;
  auto mm = *load_policy(dir, "matrix-multiply");
  EXPECT_TRUE(mm.forbids("torch.matmul"));
  EXPECT_TRUE(mm.allows("torch.empty"));
  EXPECT_TRUE(load_policy(dir, "spatial-ops")->forbids("torch.cat"));  // concatenation is that category's core
  EXPECT_EQ(default_policy_name(ingest::FileKind::Python), "kernelbench");
  EXPECT_EQ(default_policy_name(ingest::FileKind::Cuda), "repository");
}

TEST(TaskPolicy, ManifestPolicyCategory) {
  ScratchDir dir;
  const std::string manifest =
      "name: matmul_square\ncategory: MatrixMultiply\ndescription: C = A @ B\ndtypes: [fp32]\n"
      "shapes: {public: [{N: 8}], hidden: [{N: 1}, {N: 3}]}\npolicy: {category: matrix-multiply, core: "
      "[torch.matmul]}\n";
  dir.write("MatrixMultiply/matmul_square/task.yaml", manifest);
  dir.write("MatrixMultiply/matmul_square/reference.py", "N = 8\n");
  dir.write("Broken/broken/task.yaml", "shapes: []\n");
  dir.write("Broken/broken/reference.py", "");
  const auto problem = dir.write("problem.py", "class Model: pass\n");
  EXPECT_EQ(*task_policy_name(dir.path(), "matmul_square"), "matrix-multiply");
  EXPECT_EQ(*task_policy_name(dir.path(), "MatrixMultiply/matmul_square"), "matrix-multiply");
  EXPECT_EQ(*task_policy_name(dir.path(), (dir.path() / "MatrixMultiply/matmul_square/task.yaml").string()),
            "matrix-multiply");
  EXPECT_EQ(*task_policy_name(dir.path(), problem.string()), "kernelbench");
  EXPECT_NE(task_policy_name(dir.path(), "broken").error().find("task.schema.json"), std::string::npos);
  EXPECT_NE(task_policy_name(dir.path(), "missing").error().find("unknown task"), std::string::npos);
  EXPECT_FALSE(task_policy_name(dir.path(), "../x").has_value());
}

}  // namespace
}  // namespace kgate
