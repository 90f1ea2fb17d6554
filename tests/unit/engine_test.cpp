// The rule engine on hand-built FactSets: conditions, policy filter, languages, groups, messages, checks.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyzers/rules/checks.h"
#include "analyzers/rules/engine.h"
#include "test_support.h"

namespace kgate {
namespace {

const JsonSchema& schema() {
  static const JsonSchema s = *JsonSchema::load((testing::source_rules_dir() / "schema.json").string());
  return s;
}

Rule rule(const std::string& yaml) {
  auto parsed = parse_rule(yaml, "test.yaml", schema());
  EXPECT_TRUE(parsed.has_value()) << (parsed ? "" : parsed.error());
  return parsed ? std::move(*parsed) : Rule{};
}

std::string call_rule(const std::string& id, const std::string& match_body, const std::string& extra = "") {
  return "id: " + id + "\nseverity: error\ntechniques: [F1]\nsummary: s\nmessage: \"" + id +
         " {resolved}\"\nrationale: r\n" + extra + "match:\n  fact: call\n" + match_body;
}

Call make_call(std::string resolved, bool reachable = true, int module = 0) {
  Call c;
  c.resolved = std::move(resolved);
  c.callee = c.resolved;
  c.method = c.resolved.substr(c.resolved.rfind('.') + 1);
  c.reachable = reachable;
  c.module = module;
  c.span = {3, 5, 3, 14};
  return c;
}

FactSet facts_with_calls(std::vector<Call> calls) {
  FactSet facts;
  facts.modules.push_back(Module{});
  facts.calls = std::move(calls);
  return facts;
}

std::vector<std::string> rule_ids(const std::vector<Diagnostic>& findings) {
  std::vector<std::string> ids;
  for (const auto& d : findings) ids.push_back(d.rule);
  return ids;
}

TEST(Engine, WhereGlobsAndBoolsMustAllHold) {
  RuleSet rules;
  rules.add(rule(call_rule("torch-call", "  where:\n    resolved: [\"torch.*\"]\n    reachable: true\n")));
  const FactSet facts =
      facts_with_calls({make_call("torch.mm"), make_call("torch.relu", false), make_call("numpy.dot")});
  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "sub.py");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].rule, "torch-call");
  EXPECT_EQ(findings[0].message, "torch-call torch.mm");
  EXPECT_EQ(findings[0].path, "sub.py");
  EXPECT_EQ(findings[0].span.line, 3u);
  EXPECT_EQ(findings[0].span.col, 5u);
  EXPECT_EQ(findings[0].severity, Severity::Error);
}

TEST(Engine, UnlessDropsWhenAnyMapHolds) {
  RuleSet rules;
  rules.add(rule(call_rule("torch-call",
                           "  where:\n    resolved: \"torch.*\"\n  unless:\n    - resolved: [\"torch.empty*\"]\n"
                           "    - resolved: \"torch.cuda.*\"\n      reachable: true\n")));
  const FactSet facts = facts_with_calls({make_call("torch.empty_like"), make_call("torch.cuda.synchronize"),
                                          make_call("torch.cuda.synchronize", false), make_call("torch.add")});
  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "p");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].message, "torch-call torch.cuda.synchronize");  // the unreachable one: second map fails
  EXPECT_EQ(findings[1].message, "torch-call torch.add");
}

TEST(Engine, MissingFieldNeverMatchesAndListFieldsMatchAnyElement) {
  RuleSet rules;
  rules.add(rule(call_rule("half-keyword", "  where:\n    keyword_values: [\"torch.float16\", \"torch.bfloat16\"]\n")));
  Call with = make_call("torch.empty");
  with.keywords = {"device", "dtype"};
  with.keyword_values = {"cuda", "torch.bfloat16"};
  const FactSet facts = facts_with_calls({with, make_call("torch.empty")});
  const Policy policy;
  EXPECT_EQ(Engine(rules, policy).run(facts, "p").size(), 1u);

  Condition missing{"no_such_field", std::vector<std::string>{"*"}};
  EXPECT_FALSE(condition_holds(facts, FactKind::Call, 0, missing));
  Condition wrong_type{"resolved", true};  // a bool against a string field
  EXPECT_FALSE(condition_holds(facts, FactKind::Call, 0, wrong_type));
}

TEST(Engine, PolicyFilterDropsAllowedButNeverForbiddenOps) {
  RuleSet rules;
  rules.add(rule(call_rule("torch-call", "  where:\n    resolved: \"torch.*\"\n", "policy_filter: true\n")));
  rules.add(rule(call_rule("unfiltered", "  where:\n    resolved: \"torch.empty\"\n")));
  Policy policy;
  policy.allowed_ops = {"torch.empty*", "torch.Tensor.view", "torch.nn.functional.*"};
  policy.forbidden_ops = {"torch.nn.functional.relu"};
  const FactSet facts = facts_with_calls({make_call("torch.empty"), make_call("torch.nn.functional.gelu"),
                                          make_call("torch.nn.functional.relu"), make_call("torch.mm")});
  const auto findings = Engine(rules, policy).run(facts, "p");
  std::vector<std::string> messages;
  for (const auto& d : findings) messages.push_back(d.message);
  EXPECT_EQ(messages, (std::vector<std::string>{"torch-call torch.nn.functional.relu", "torch-call torch.mm",
                                                "unfiltered torch.empty"}));
}

TEST(Engine, LanguagesFilterUsesTheFactsModuleLanguage) {
  RuleSet rules;
  rules.add(rule(call_rule("cuda-only", "  where:\n    resolved: \"*\"\n", "languages: [cuda, cpp]\n")));
  FactSet facts = facts_with_calls({make_call("cudaStreamCreate", true, 1), make_call("torch.mm", true, 0)});
  Module cuda;
  cuda.language = Language::Cuda;
  facts.modules.push_back(cuda);
  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "p");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].message, "cuda-only cudaStreamCreate");
}

TEST(Engine, LanguagesFilterIgnoresFactsWithoutALanguage) {
  RuleSet rules;
  rules.add(
      rule("id: imp\nseverity: warning\ntechniques: []\nsummary: s\nmessage: \"import {qualified}\"\nrationale: r\n"
           "languages: [cuda]\nmatch:\n  fact: import\n  where:\n    module: subprocess\n"));
  FactSet facts;
  facts.modules.push_back(Module{});
  Import im;
  im.module = "subprocess";
  im.span = {1, 1, 1, 18};
  facts.imports.push_back(im);
  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "p");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].message, "import subprocess");
  EXPECT_EQ(findings[0].severity, Severity::Warning);
}

TEST(Engine, GroupReportsEachFactOnceForTheHighestPriority) {
  RuleSet rules;
  rules.add(rule(call_rule("torch-function", "  where:\n    resolved: \"torch.*\"\n", "group: torch-call\n")));
  rules.add(
      rule(call_rule("fallback-in-except", "  where:\n    in_except: true\n", "group: torch-call\npriority: 10\n")));
  rules.add(
      rule(call_rule("quant", "  where:\n    resolved: \"torch.quantize_*\"\n", "group: torch-call\npriority: 20\n")));
  rules.add(rule(call_rule("ungrouped", "  where:\n    resolved: \"torch.*\"\n")));
  Call in_except = make_call("torch.mm");
  in_except.guard.in_except = true;
  const FactSet facts = facts_with_calls({make_call("torch.add"), in_except, make_call("torch.quantize_per_tensor")});
  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "p");
  std::vector<std::string> messages;
  for (const auto& d : findings) messages.push_back(d.message);
  std::sort(messages.begin(), messages.end());
  EXPECT_EQ(messages, (std::vector<std::string>{"fallback-in-except torch.mm", "quant torch.quantize_per_tensor",
                                                "torch-function torch.add", "ungrouped torch.add", "ungrouped torch.mm",
                                                "ungrouped torch.quantize_per_tensor"}));
}

TEST(Engine, GroupTiesGoToTheSmallestId) {
  RuleSet rules;
  rules.add(rule(call_rule("zeta", "  where:\n    resolved: \"torch.*\"\n", "group: g\n")));
  rules.add(rule(call_rule("alpha", "  where:\n    resolved: \"torch.*\"\n", "group: g\n")));
  const FactSet facts = facts_with_calls({make_call("torch.mm")});
  const Policy policy;
  EXPECT_EQ(rule_ids(Engine(rules, policy).run(facts, "p")), std::vector<std::string>{"alpha"});
}

TEST(Engine, DisabledGroupWinnerLetsTheNextReport) {
  RuleSet rules;
  rules.add(rule(call_rule("low", "  where:\n    resolved: \"torch.*\"\n", "group: g\n")));
  rules.add(rule(call_rule("high", "  where:\n    resolved: \"torch.*\"\n", "group: g\npriority: 5\n")));
  const FactSet facts = facts_with_calls({make_call("torch.mm")});
  Policy policy;
  policy.disabled_rules = {"high"};
  EXPECT_EQ(rule_ids(Engine(rules, policy).run(facts, "p")), std::vector<std::string>{"low"});
}

TEST(Engine, AlternativesReportAFactOnceAndMayMixFactKinds) {
  RuleSet rules;
  rules.add(
      rule("id: alt\nseverity: error\ntechniques: []\nsummary: s\nmessage: \"{resolved}\"\nrationale: r\nmatch:\n"
           "  - fact: call\n    where: {resolved: \"torch.*\"}\n"
           "  - fact: call\n    where: {reachable: true}\n"
           "  - fact: write\n    where: {resolved: \"torch.cuda.Event.*\"}\n    message: \"patches {attribute}\"\n"));
  FactSet facts = facts_with_calls({make_call("torch.mm"), make_call("numpy.dot"), make_call("numpy.add", false)});
  AttributeWrite write;
  write.resolved = "torch.cuda.Event.elapsed_time";
  write.attribute = "elapsed_time";
  write.span = {7, 1, 7, 30};
  facts.writes.push_back(write);
  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "p");
  std::vector<std::string> messages;
  for (const auto& d : findings) messages.push_back(d.message);
  EXPECT_EQ(messages, (std::vector<std::string>{"torch.mm", "numpy.dot", "patches elapsed_time"}));
}

TEST(Engine, MessageSubstitution) {
  FactSet facts = facts_with_calls({make_call("torch.mm")});
  facts.calls[0].keywords = {"a", "b"};
  facts.calls[0].reachable = false;
  EXPECT_EQ(render_message("{resolved} via {method}: {keywords}; {reachable} {unknown} {", facts, FactKind::Call, 0),
            "torch.mm via mm: a, b; false {unknown} {");
  EXPECT_EQ(render_message("no placeholders", facts, FactKind::Call, 0), "no placeholders");
  EXPECT_EQ(render_message("{function}", facts, FactKind::Call, 0), "<module>");
}

TEST(Engine, SeverityAndEnablePrecedence) {
  RuleSet rules;
  rules.add(rule(call_rule("a-rule", "  where:\n    resolved: \"*\"\n")));
  rules.add(rule(call_rule("b-rule", "  where:\n    resolved: \"*\"\n")));
  Policy policy;
  policy.disabled_rules = {"b-*"};
  policy.severity_overrides = {{"a-rule", Severity::Warning}};
  const FactSet facts = facts_with_calls({make_call("torch.mm")});

  const Engine plain(rules, policy);
  auto findings = plain.run(facts, "p");
  ASSERT_EQ(rule_ids(findings), std::vector<std::string>{"a-rule"});
  EXPECT_EQ(findings[0].severity, Severity::Warning);  // the policy's override

  Config config;
  config.enable = {"b-rule"};  // re-enables what the policy disabled
  config.disable = {"*"};      // enable wins over disable
  config.severity = {{"*", Severity::Note}, {"a-rule", Severity::Error}};
  findings = Engine(rules, policy, &config).run(facts, "p");
  ASSERT_EQ(rule_ids(findings), std::vector<std::string>{"b-rule"});
  EXPECT_EQ(findings[0].severity, Severity::Note);  // the config's glob beats the rule file

  config.enable = {"a-rule"};
  findings = Engine(rules, policy, &config).run(facts, "p");
  ASSERT_EQ(rule_ids(findings), std::vector<std::string>{"a-rule"});
  EXPECT_EQ(findings[0].severity, Severity::Error);  // the exact id beats the glob
}

TEST(Engine, OnlyRulesRunsExactlyTheListedRules) {
  RuleSet rules;
  rules.add(rule(call_rule("a-rule", "  where:\n    resolved: \"*\"\n")));
  rules.add(rule(call_rule("b-rule", "  where:\n    resolved: \"*\"\n")));
  Policy policy;
  policy.disabled_rules = {"b-rule"};
  const FactSet facts = facts_with_calls({make_call("torch.mm")});
  const Engine engine(rules, policy, nullptr, {"b-rule"});
  EXPECT_TRUE(engine.only_mode());
  EXPECT_EQ(rule_ids(engine.run(facts, "p")), std::vector<std::string>{"b-rule"});
  EXPECT_FALSE(engine.enabled("input-empty"));
}

// ----- registered checks -----

Rule check_rule(const std::string& id) {
  return rule("id: " + id + "\nseverity: error\ntechniques: [F2]\nsummary: s\nmessage: m\nrationale: r\ncheck: " + id +
              "\n");
}

FactSet submission(SubmissionFormat format) {
  FactSet facts;
  facts.format = format;
  facts.modules.push_back(Module{});
  Function forward;
  forward.name = "forward";
  forward.qualname = "ModelNew.forward";
  forward.class_name = "ModelNew";
  forward.reachable = true;
  forward.span = {10, 9, 10, 16};
  facts.functions.push_back(forward);
  facts.entry = 0;
  facts.entries = {0};
  ClassDef model;
  model.name = "ModelNew";
  facts.classes.push_back(model);
  return facts;
}

TEST(Checks, ForwardReachesNoKernelNamesWhatForwardCalls) {
  RuleSet rules;
  rules.add(check_rule("forward-reaches-no-kernel"));
  FactSet facts = submission(SubmissionFormat::KernelBenchTriton);
  Call mm = make_call("torch.mm");
  mm.function = 0;
  facts.calls.push_back(mm);
  Launch dead;
  dead.kernel = "add_kernel";
  dead.reachable = false;
  facts.launches.push_back(dead);
  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "sub.py");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].span.line, 10u);
  EXPECT_NE(findings[0].message.find("ModelNew.forward"), std::string::npos);
  EXPECT_NE(findings[0].message.find("torch.mm"), std::string::npos);
  EXPECT_NE(findings[0].message.find("1 launch is in unreachable or dead code"), std::string::npos);

  facts.launches[0].reachable = true;
  EXPECT_TRUE(Engine(rules, policy).run(facts, "sub.py").empty());
}

TEST(Checks, ForwardReachesNoKernelOnlyForCandidatesWithAnEntry) {
  RuleSet rules;
  rules.add(check_rule("forward-reaches-no-kernel"));
  const Policy policy;
  FactSet reference = submission(SubmissionFormat::Task);
  reference.harness_reference = true;  // the harness's own file (reference.py) is no candidate
  EXPECT_TRUE(Engine(rules, policy).run(reference, "reference.py").empty());
  EXPECT_EQ(Engine(rules, policy).run(submission(SubmissionFormat::Task), "t.py").size(),
            1u);  // class Model, as a candidate
  FactSet no_entry = submission(SubmissionFormat::KernelBenchCuda);
  no_entry.entry = -1;
  EXPECT_TRUE(Engine(rules, policy).run(no_entry, "t.py").empty());
}

TEST(Checks, ModelNewMissing) {
  RuleSet rules;
  rules.add(check_rule("modelnew-missing"));
  const Policy policy;
  FactSet facts = submission(SubmissionFormat::KernelBenchCuda);
  facts.harness = "kernelbench";
  facts.entry = -1;
  EXPECT_TRUE(Engine(rules, policy).run(facts, "s.py").empty());  // ModelNew exists
  facts.classes.clear();
  const auto findings = Engine(rules, policy).run(facts, "s.py");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].span.line, 1u);
  ClassDef renamed;
  renamed.name = "ModelOptimized";
  renamed.bases = {"torch.nn.Module"};
  renamed.span = {28, 7, 28, 21};
  ClassDef helper;
  helper.name = "LaunchConfig";
  helper.span = {23, 7, 23, 19};
  facts.classes = {helper, renamed};
  const auto at_class = Engine(rules, policy).run(facts, "s.py");
  ASSERT_EQ(at_class.size(), 1u);
  EXPECT_EQ(at_class[0].span.line, 28u);
  EXPECT_NE(at_class[0].message.find("ModelOptimized"), std::string::npos);
  facts.harness = "gpumode";  // another harness's missing entry is entry-not-found's
  EXPECT_TRUE(Engine(rules, policy).run(facts, "s.py").empty());
}

TEST(Checks, DecoyKernelUnlaunched) {
  RuleSet rules;
  rules.add(check_rule("decoy-kernel-unlaunched"));
  FactSet facts = submission(SubmissionFormat::KernelBenchTriton);
  Function launched, decoy, helper;
  launched.qualname = launched.name = "add_kernel";
  launched.kind = FunctionKind::TritonJit;
  decoy.qualname = decoy.name = "fancy_kernel";
  decoy.kind = FunctionKind::TritonJit;
  decoy.span = {4, 5, 4, 17};
  helper.qualname = helper.name = "tile_helper";
  helper.kind = FunctionKind::TritonJit;
  facts.functions.insert(facts.functions.end(), {launched, decoy, helper});
  Launch launch;
  launch.kernel = "add_kernel";
  launch.kernel_function = 1;
  launch.reachable = true;
  facts.launches.push_back(launch);
  Call helper_call = make_call("tile_helper");
  helper_call.local_target = true;
  facts.calls.push_back(helper_call);

  Extension ext;
  ext.name = "fused";
  ext.functions = {"fwd", "unused"};
  ext.span = {20, 7, 20, 18};
  facts.extensions.push_back(ext);
  Launch ext_launch;
  ext_launch.kind = LaunchKind::Extension;
  ext_launch.kernel = "fused.fwd";
  ext_launch.reachable = true;
  facts.launches.push_back(ext_launch);

  const Policy policy;
  const auto findings = Engine(rules, policy).run(facts, "s.py");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].span.line, 4u);
  EXPECT_NE(findings[0].message.find("fancy_kernel"), std::string::npos);
  EXPECT_EQ(findings[1].span.line, 20u);
  EXPECT_NE(findings[1].message.find("fused.unused"), std::string::npos);
}

TEST(Checks, PipelineChecksProduceNothingInTheEngine) {
  RuleSet rules;
  rules.add(check_rule("ingest"));
  rules.add(check_rule("suppressions"));
  const Policy policy;
  EXPECT_TRUE(Engine(rules, policy).run(submission(SubmissionFormat::KernelBenchCuda), "s.py").empty());
  ASSERT_NE(find_check("ingest"), nullptr);
  EXPECT_EQ(find_check("ingest")->run, nullptr);
  EXPECT_EQ(find_check("no-such-check"), nullptr);
}

}  // namespace
}  // namespace kgate
