// Calls into Python modules of the submission's own directory (analyzers/pipeline/imported_modules.h):
// what the called function reaches counts at the call, for the kernel and for the fallbacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

constexpr const char* kKernels =
    "import torch\nimport triton\nimport triton.language as tl\n\n"
    "@triton.jit\n"
    "def _scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)\n\n"
    "def _launch(x, y):\n"
    "    _scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)\n\n"
    "def scale(x):\n"
    "    y = torch.empty_like(x)\n"
    "    _launch(x, y)\n"
    "    return y\n\n"
    "def scale_then_matmul(x, w):\n"
    "    return torch.matmul(scale(x), w)\n\n"
    "class Scale(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return scale(x)\n";

std::string host(const std::string& imports, const std::string& init, const std::string& body) {
  return "import torch\nimport torch.nn as nn\n" + imports +
         "\n\nclass ModelNew(nn.Module):\n"
         "    def __init__(self):\n"
         "        super().__init__()\n" +
         (init.empty() ? "" : "        " + init + "\n") +
         "\n    def forward(self, x, w=None):\n"
         "        return " +
         body + "\n";
}

class ImportedModules : public ::testing::Test {
 protected:
  void SetUp() override {
    load_ = load_rules(testing::source_rules_dir());
    ASSERT_TRUE(load_.problems.empty());
    policy_ = load_policy(testing::source_rules_dir() / "policies", "kernelbench");
    ASSERT_TRUE(policy_.has_value());
    context_.rules = &load_.rules;
    context_.policy = &*policy_;
    context_.cpp_engine = "tree-sitter";
  }

  FileResult check(const std::string& solution) {
    return analyze_file(dir_.write("solution.py", solution).string(), context_);
  }

  static std::vector<std::string> rules(const FileResult& r) {
    std::vector<std::string> out;
    for (const auto& d : r.findings) out.push_back(d.rule);
    return out;
  }

  static const Diagnostic* find(const FileResult& r, const std::string& rule) {
    const auto it =
        std::find_if(r.findings.begin(), r.findings.end(), [&](const Diagnostic& d) { return d.rule == rule; });
    return it == r.findings.end() ? nullptr : &*it;
  }

  RuleLoad load_;
  Result<Policy> policy_ = Result<Policy>(Policy{});
  AnalysisContext context_;
  testing::ScratchDir dir_;
};

// Without the module on disk nothing can be followed: the file is unjudged, with entry-helper-missing
// naming the call, and not "reaches no kernel". A standard-library or published library call is not a
// missing helper.
TEST_F(ImportedModules, WithoutTheModuleOnDiskTheEntryIsUnjudged) {
  const FileResult r = check(host("import ops", "", "ops.scale(x)"));
  EXPECT_EQ(r.verdict, "unjudged");
  ASSERT_NE(find(r, "entry-helper-missing"), nullptr);
  EXPECT_NE(find(r, "entry-helper-missing")->message.find("ops.scale"), std::string::npos);
  EXPECT_EQ(find(r, "forward-reaches-no-kernel"), nullptr);
  const FileResult library = check(host("import pickle", "", "pickle.loads(pickle.dumps(x))"));
  EXPECT_EQ(find(library, "entry-helper-missing"), nullptr);
  EXPECT_NE(find(library, "forward-reaches-no-kernel"), nullptr);
}

TEST_F(ImportedModules, AFunctionOfTheModuleLaunchesTheKernelForTheEntry) {
  dir_.write("ops.py", kKernels);
  for (const auto& [imports, body] :
       std::vector<std::pair<std::string, std::string>>{{"import ops", "ops.scale(x)"},
                                                        {"import ops as k", "k.scale(x)"},
                                                        {"from ops import scale", "scale(x)"},
                                                        {"from .ops import scale", "scale(x)"},
                                                        {"from . import ops", "ops.scale(x)"}}) {
    const FileResult r = check(host(imports, "", body));
    EXPECT_EQ(r.verdict, "pass") << imports << ": " << ::testing::PrintToString(rules(r));
    EXPECT_TRUE(r.findings.empty()) << imports << ": " << ::testing::PrintToString(rules(r));
  }
}

// The runtime tells the submission's kernels from library kernels by these names (CUPTI): a kernel
// defined in a helper module the entry calls into is the submission's own. Without the call, it is not
// one of the file's.
TEST_F(ImportedModules, TheModulesKernelsAreTheSubmissionsOwn) {
  dir_.write("ops.py", kKernels);
  const FileResult r = check(host("import ops", "", "ops.scale(x)"));
  EXPECT_NE(std::find(r.kernels.begin(), r.kernels.end(), "_scale_kernel"), r.kernels.end())
      << ::testing::PrintToString(r.kernels);
  const FileResult unrelated = check(host("import ops", "", "torch.relu(x)"));
  EXPECT_EQ(std::find(unrelated.kernels.begin(), unrelated.kernels.end(), "_scale_kernel"), unrelated.kernels.end());
}

TEST_F(ImportedModules, AnInstanceOfTheModulesClassLaunchesTheKernel) {
  dir_.write("ops.py", kKernels);
  const FileResult r = check(host("from ops import Scale", "self.op = Scale()", "self.op(x)"));
  EXPECT_EQ(r.verdict, "pass") << ::testing::PrintToString(rules(r));
}

TEST_F(ImportedModules, APackageModuleIsFollowed) {
  dir_.write("kern/__init__.py", "");
  dir_.write("kern/ops.py", kKernels);
  const FileResult r = check(host("from kern.ops import scale", "", "scale(x)"));
  EXPECT_EQ(r.verdict, "pass") << ::testing::PrintToString(rules(r));
}

TEST_F(ImportedModules, AFallbackInTheModuleIsReportedAtTheEntrysCall) {
  dir_.write("ops.py", kKernels);
  const FileResult r = check(host("import ops", "", "ops.scale_then_matmul(x, w)"));
  EXPECT_EQ(r.verdict, "reject");
  const Diagnostic* d = find(r, "torch-function-in-forward");
  ASSERT_NE(d, nullptr) << ::testing::PrintToString(rules(r));
  EXPECT_EQ(d->span.line, 10u);  // the entry's `return ops.scale_then_matmul(x, w)`
  EXPECT_NE(d->message.find("ops.scale_then_matmul calls torch.matmul"), std::string::npos) << d->message;
  // The kernel is launched all the same: the rejection is for the fallback, not for no kernel.
  EXPECT_EQ(find(r, "forward-reaches-no-kernel"), nullptr);
}

TEST_F(ImportedModules, AModuleWithoutAKernelOnThePathDoesNotCount) {
  dir_.write("ops.py",
             "import torch\nimport triton\n\n@triton.jit\ndef unused(x_ptr):\n    pass\n\n"
             "def scale(x):\n    return torch.mul(x, 2.0)\n");
  const FileResult r = check(host("import ops", "", "ops.scale(x)"));
  EXPECT_NE(find(r, "forward-reaches-no-kernel"), nullptr) << ::testing::PrintToString(rules(r));
  EXPECT_NE(find(r, "torch-function-in-forward"), nullptr) << ::testing::PrintToString(rules(r));
}

TEST_F(ImportedModules, ModulesThatImportEachOtherEndTheWalk) {
  dir_.write("a.py", "import b\n\ndef f(x):\n    return b.g(x)\n");
  dir_.write("b.py", "import a\nimport solution\n\ndef g(x):\n    return a.f(x)\n");
  const FileResult r = check(host("import a", "", "a.f(x)"));
  EXPECT_EQ(r.verdict, "reject");
  EXPECT_NE(find(r, "forward-reaches-no-kernel"), nullptr) << ::testing::PrintToString(rules(r));
}

TEST_F(ImportedModules, AKernelTwoModulesDeepCounts) {
  dir_.write("ops.py", kKernels);
  dir_.write("mid.py", "import ops\n\ndef run(x):\n    return ops.scale(x)\n");
  const FileResult r = check(host("import mid", "", "mid.run(x)"));
  EXPECT_EQ(r.verdict, "pass") << ::testing::PrintToString(rules(r));
}

TEST_F(ImportedModules, ABundlesPythonSidecarIsTheModule) {
  const std::string bundle = host("from ops import scale", "", "scale(x)") +
                             "\n# ==================================================================\n"
                             "# ===== sidecar: ops.py (600 bytes, loaded by solution.py) =====\n"
                             "# ==================================================================\n" +
                             kKernels;
  const FileResult r = analyze_source((dir_.path() / "solution.py").string(), bundle, context_);
  EXPECT_EQ(r.verdict, "pass") << ::testing::PrintToString(rules(r));
}

TEST_F(ImportedModules, TheHarnesssOwnModulesAreNotFollowed) {
  // GPU MODE forbids importing its reference: a kernel there is not the submission's.
  dir_.write("reference.py", kKernels);
  const FileResult r =
      analyze_file(dir_.write("submission.py",
                              "import torch\nfrom task import input_t, output_t\nimport reference\n\n"
                              "def custom_kernel(data: input_t) -> output_t:\n    return reference.scale(data)\n")
                       .string(),
                   context_);
  EXPECT_EQ(r.verdict, "reject");
  EXPECT_NE(find(r, "forward-reaches-no-kernel"), nullptr) << ::testing::PrintToString(rules(r));
}

}  // namespace
}  // namespace kgate
