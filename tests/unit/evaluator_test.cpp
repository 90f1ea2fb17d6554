// The entry functions a harness's evaluator script beside a submission names (pipeline/evaluator.h):
// GPU MODE's eval.py, which imports the submission as a module and calls custom_kernel, or the
// functions a task names instead.
#include "analyzers/pipeline/evaluator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "analyzers/pipeline/contract.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

using kgate::testing::ScratchDir;
using Names = std::map<std::string, std::set<std::string>>;

Names evaluated(const ScratchDir& dir, const std::string& text) {
  ReferenceSummaries summaries;
  return summaries.of(dir.write("eval.py", text), ingest::Limits{}).evaluated;
}

TEST(EvaluatorNames, FromImportsTheNamedFunctions) {
  ScratchDir dir;
  EXPECT_EQ(evaluated(dir, "from submission import custom_kernel\nfrom utils import make_match_reference as m\n"),
            (Names{{"submission", {"custom_kernel"}}, {"utils", {"make_match_reference"}}}));
}

// The module travels: returned by a loader, assigned from its call, passed to a checker's parameter.
// Attributes of other objects (the logger, a stand-in module built by hand) are not the submission's.
TEST(EvaluatorNames, AttributesOfTheModuleWhereverItIsHeld) {
  ScratchDir dir;
  const Names names = evaluated(dir, R"(import sys

def load():
    import submission
    for name in ("step_forward", "step_backward"):
        if not hasattr(submission, name):
            raise AttributeError(name)
    return submission

def check(logger, module, size):
    logger.log("size", size)
    y = module.step_forward(size)
    return module.step_backward(y), module.__name__

def main(logger):
    mod = load()
    baseline = type(sys)("baseline")
    baseline.step_forward = print
    check(logger, mod, 8)
    return getattr(mod, "step_extra")
)");
  ASSERT_TRUE(names.count("submission"));
  EXPECT_EQ(names.at("submission"), (std::set<std::string>{"step_forward", "step_backward", "step_extra"}));
  EXPECT_FALSE(names.count("sys"));  // `import sys` holds sys, whose attributes this script never reads
}

TEST(EvaluatorNames, AnAliasedImportIsTheModule) {
  ScratchDir dir;
  EXPECT_EQ(evaluated(dir, "import submission as sub\n\ndef run(x):\n    return sub.solve(x)\n"),
            (Names{{"submission", {"solve"}}}));
}

TEST(EvaluatorNames, SubmissionModuleFromTaskYml) {
  ScratchDir dir;
  const auto file = dir.write("my_try.py", "");
  EXPECT_EQ(submission_module_names(file), std::set<std::string>{"my_try"});
  dir.write("task.yml",
            "files:\n  - {\"name\": \"solution.py\", \"source\": \"@SUBMISSION@\"}\n"
            "  - {\"name\": \"eval.py\", \"source\": \"eval.py\"}\n");
  EXPECT_EQ(submission_module_names(file), (std::set<std::string>{"my_try", "solution"}));
  dir.write("task.yml", "files: [unclosed\n");
  EXPECT_EQ(submission_module_names(file), std::set<std::string>{"my_try"});
}

constexpr const char* kEvaluator = R"(def load():
    import submission
    return submission

def check(mod, x, g):
    return mod.act_forward(x), mod.act_backward(x, g)

def main(x, g):
    return check(load(), x, g)
)";

constexpr const char* kKernels = R"(import torch
import triton
import triton.language as tl

@triton.jit
def _fwd(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=offs < n), 0.0), mask=offs < n)

def act_forward(x):
    y = torch.empty_like(x)
    _fwd[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y
)";

class EvaluatorEntries : public ::testing::Test {
 protected:
  void SetUp() override {
    auto load = load_rules(kgate::testing::source_rules_dir());
    ASSERT_TRUE(load.problems.empty());
    rules = std::move(load.rules);
    context.rules = &rules;
    context.policy = &policy;
    dir.write("eval.py", kEvaluator);
  }
  std::set<std::string> errors(const FileResult& r) const {
    std::set<std::string> out;
    for (const Diagnostic& d : r.findings)
      if (d.severity == Severity::Error) out.insert(d.rule);
    return out;
  }
  RuleSet rules;
  Policy policy;
  AnalysisContext context;
  ScratchDir dir;
};

TEST_F(EvaluatorEntries, FunctionsTheEvaluatorCallsAreTheEntries) {
  const std::string honest = std::string(kKernels) + R"(
def act_backward(x, g):
    out = torch.empty_like(x)
    _fwd[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
)";
  const FileResult r = analyze_file(dir.write("submission.py", honest).string(), context);
  EXPECT_EQ(r.harness, "gpumode");
  EXPECT_TRUE(r.entry_found);
  EXPECT_EQ(r.verdict, "pass") << ::testing::PrintToString(errors(r));
}

TEST_F(EvaluatorEntries, EachEntryIsJudged) {
  const std::string fallback = std::string(kKernels) + "\ndef act_backward(x, g):\n    return g * torch.relu(x)\n";
  const FileResult r = analyze_file(dir.write("submission.py", fallback).string(), context);
  EXPECT_EQ(r.verdict, "reject");
  EXPECT_TRUE(errors(r).count("torch-function-in-forward"));
}

TEST_F(EvaluatorEntries, AnEntryBoundToALibraryFunctionIsReported) {
  const std::string bound = std::string(kKernels) + "\nact_backward = torch.ops.aten.threshold_backward\n";
  const FileResult r = analyze_file(dir.write("submission.py", bound).string(), context);
  EXPECT_EQ(r.verdict, "reject");
  EXPECT_EQ(errors(r), std::set<std::string>{"entry-class-replaced"});
}

// Only the module the evaluator imports: another file beside it is not entered through its names,
// and a config's entry_functions, when given, are the entries instead.
TEST_F(EvaluatorEntries, OnlyTheSubmissionsModuleAndNeverOverAConfig) {
  const FileResult other = analyze_file(dir.write("scratch.py", kKernels).string(), context);
  EXPECT_FALSE(other.entry_found);
  EXPECT_NE(other.verdict, "pass");
  context.harness.extra_entry_functions = {"act_forward"};
  const FileResult configured = analyze_file(dir.write("submission.py", kKernels).string(), context);
  EXPECT_EQ(configured.harness, "model-entry");
  EXPECT_EQ(configured.verdict, "pass");
}

}  // namespace
}  // namespace kgate
