// Harness profiles: loading and validation, recognition per file, and what the pipeline does with
// them (entries, verdicts, module-level rules on every file, imports a harness provides).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "analyzers/harness/harness.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

using kgate::testing::ScratchDir;
using kgate::testing::source_rules_dir;

const HarnessSet& profiles() {
  static const HarnessSet set = [] {
    auto loaded = load_harnesses(source_rules_dir() / "harnesses");
    EXPECT_TRUE(loaded.has_value()) << loaded.error();
    return loaded ? std::move(*loaded) : HarnessSet{};
  }();
  return set;
}

ModuleOutline python(std::vector<std::string> classes, std::vector<std::string> functions, bool kernels = false,
                     bool module_class = false) {
  ModuleOutline o;
  o.classes = std::move(classes);
  o.functions = std::move(functions);
  o.own_kernels = kernels;
  o.module_class = module_class;
  return o;
}

std::string selected(const ModuleOutline& outline, std::string_view forced = {}) {
  const HarnessProfile* p = profiles().select(outline, forced);
  return p ? p->name : "none";
}

TEST(HarnessProfiles, EveryProfileLoads) {
  const std::vector<std::string> want = {"gpumode",          "gpumode-cuda-legacy", "kernelbench", "model-entry",
                                         "operator-library", "output-argument",     "repository"};
  EXPECT_EQ(profiles().names(), want);
}

TEST(HarnessProfiles, RecognisesEachHarness) {
  EXPECT_EQ(selected(python({"ModelNew"}, {})), "kernelbench");
  EXPECT_EQ(selected(python({"Model", "ModelNew"}, {"get_inputs"})),
            "kernelbench");  // both: the submission's class wins
  EXPECT_EQ(selected(python({"Model"}, {"get_inputs"})), "model-entry");
  EXPECT_EQ(selected(python({"Model"}, {}, true, true)),
            "model-entry");  // kernels and Model: not the weak KernelBench signal
  EXPECT_EQ(selected(python({}, {"custom_kernel"}, true)), "gpumode");
  EXPECT_EQ(selected(python({}, {"solve"})), "output-argument");
  EXPECT_EQ(selected(python({}, {"rms_norm"}, true, false)), "operator-library");
  EXPECT_EQ(selected(python({"Renamed"}, {}, true, true)), "kernelbench");  // a renamed KernelBench model
  EXPECT_EQ(selected(python({}, {"helper"})), "none");
  ModuleOutline cu;
  cu.python = false;
  EXPECT_EQ(selected(cu), "repository");
  cu.includes = {"task.h"};
  EXPECT_EQ(selected(cu), "gpumode");
  cu.includes = {"../include/task.h"};
  EXPECT_EQ(selected(cu), "gpumode");
  // GPU MODE's first CUDA layout: the types in reference.cuh, the entry submission(data).
  cu.includes = {"reference.cuh"};
  EXPECT_EQ(selected(cu), "repository");  // the header alone: no entry of that harness
  cu.functions = {"submission"};
  EXPECT_EQ(selected(cu), "gpumode-cuda-legacy");
  cu.includes = {"task.h", "reference.cuh"};
  EXPECT_EQ(selected(cu), "gpumode");  // task.h holds the types: reference.cuh is the checker's
  // LeetGPU / Tensara CUDA: `extern "C" void solve(...)`, loaded with ctypes. A solve with C++ linkage
  // (a linear solver in a kernel repository) is no such entry.
  ModuleOutline leet;
  leet.python = false;
  leet.functions = {"solve"};
  EXPECT_EQ(selected(leet), "repository");
  leet.c_functions = {"solve"};
  EXPECT_EQ(selected(leet), "output-argument");
  leet.c_functions = {"solution"};
  EXPECT_EQ(selected(leet), "output-argument");
  leet.c_functions = {"launch"};
  EXPECT_EQ(selected(leet), "repository");
  EXPECT_EQ(selected(python({}, {"helper"}), "model-entry"), "model-entry");  // forced
  EXPECT_EQ(selected(python({}, {"helper"}), "no-such-profile"), "none");
}

TEST(HarnessProfiles, ImportsAndReferenceFiles) {
  const HarnessProfile* gpumode = profiles().find("gpumode");
  ASSERT_NE(gpumode, nullptr);
  EXPECT_TRUE(gpumode->allows_import("task"));
  EXPECT_TRUE(gpumode->allows_import("task.h"));
  EXPECT_TRUE(gpumode->forbids_import("reference"));
  EXPECT_TRUE(gpumode->forbids_import("reference.cuh"));
  EXPECT_FALSE(gpumode->forbids_import("utils.h"));  // C++ helpers, not the checker
  EXPECT_TRUE(gpumode->names_reference("reference.py"));
  EXPECT_FALSE(gpumode->names_reference("submission.py"));
  EXPECT_TRUE(gpumode->reference_functions.empty());
  const HarnessProfile* legacy = profiles().find("gpumode-cuda-legacy");
  ASSERT_NE(legacy, nullptr);
  EXPECT_TRUE(legacy->allows_import("reference.cuh"));  // its types live there
  EXPECT_TRUE(legacy->forbids_import("eval.cu"));
  const std::vector<std::string> checker = {"reference", "ref_kernel", "generate_input", "check_implementation"};
  EXPECT_EQ(legacy->reference_functions, checker);
  const HarnessProfile* output = profiles().find("output-argument");
  ASSERT_NE(output, nullptr);
  EXPECT_TRUE(output->output_parameter("output"));
  EXPECT_TRUE(output->output_parameter("c_out"));
  EXPECT_FALSE(output->output_parameter("input"));
  EXPECT_TRUE(output->names_reference("challenge.py"));  // LeetGPU's reference_impl and tests
}

TEST(HarnessProfiles, InvalidProfilesAreRefused) {
  ScratchDir dir;
  std::filesystem::copy_file(source_rules_dir() / "harnesses" / "harness.schema.json",
                             dir.path() / "harness.schema.json");
  dir.write("bad.yaml",
            "name: bad\nsummary: x\npriority: 1\nrecognise: [{kind: python}]\nentry: {}\nwithout_entry: maybe\n");
  auto loaded = load_harnesses(dir.path());
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().find("harness.schema.json"), std::string::npos) << loaded.error();
  std::filesystem::remove(dir.path() / "bad.yaml");
  dir.write("named.yaml",
            "name: other\nsummary: x\npriority: 1\nrecognise: [{kind: python}]\nentry: {}\nwithout_entry: unjudged\n");
  loaded = load_harnesses(dir.path());
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().find("differs from the file name"), std::string::npos) << loaded.error();
}

// The pipeline with every real rule and the kernelbench policy, as `kgate check` runs a .py file.
class HarnessPipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    auto load = load_rules(source_rules_dir());
    ASSERT_TRUE(load.problems.empty()) << load.problems.front().message;
    rules = std::move(load.rules);
    auto loaded = load_policy(source_rules_dir() / "policies", "kernelbench");
    ASSERT_TRUE(loaded.has_value()) << loaded.error();
    policy = std::move(*loaded);
    context.rules = &rules;
    context.policy = &policy;
    context.cpp_engine = "none";
    context.harness.set = &profiles();
  }
  std::set<std::string> rules_of(const FileResult& r) const {
    std::set<std::string> out;
    for (const auto& f : r.findings) out.insert(f.rule);
    return out;
  }
  RuleSet rules;
  Policy policy;
  AnalysisContext context;
};

constexpr const char* kGpuModeHeader =
    "from task import input_t, output_t\n"
    "import torch\nimport triton\nimport triton.language as tl\n\n"
    "@triton.jit\ndef _copy(src, dst, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)\n\n"
    "def custom_kernel(data: input_t) -> output_t:\n"
    "    out = torch.empty_like(data)\n"
    "    _copy[(triton.cdiv(data.numel(), 1024),)](data, out, data.numel(), BLOCK=1024)\n"
    "    return out\n";

TEST_F(HarnessPipeline, HonestGpuModeSubmissionPasses) {
  const FileResult r = analyze_source("submission.py", kGpuModeHeader, context);
  EXPECT_EQ(r.harness, "gpumode");
  EXPECT_EQ(r.verdict, "pass");
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().rule << ": " << r.findings.front().message;
}

// Every module-level cheat in a GPU MODE file is rejected by the rule for that cheat, not by a
// finding about the file's format (before harness profiles, such a file was "other Python": pass).
TEST_F(HarnessPipeline, GpuModeModuleLevelCheatsAreRejectedByTheirRule) {
  const std::vector<std::pair<std::string, std::string>> cheats = {
      {"timer-patch", "torch.cuda.Event.elapsed_time = lambda self, end: 0.001\n"},
      {"result-channel-forgery",
       "import os\nos.write(int(os.environ['POPCORN_FD']), b'check: pass\\n')\nos._exit(0)\n"},
      {"introspection", "import gc\n_ref = [o for o in gc.get_objects() if type(o).__name__ == 'Tensor']\n"},
      {"native-library-load", "import ctypes\n_libc = ctypes.CDLL('libc.so.6')\n"},
      {"validator-patch", "torch.allclose = lambda *a, **k: True\n"},
      {"process-spawn", "import subprocess\nsubprocess.run(['pip', 'install', 'x'])\n"},
  };
  for (const auto& [rule, payload] : cheats) {
    const FileResult r = analyze_source("submission.py", std::string(kGpuModeHeader) + payload, context);
    const auto found = rules_of(r);
    EXPECT_TRUE(found.count(rule)) << rule << " missing; got " << found.size() << " rule(s)";
    EXPECT_FALSE(found.count("entry-not-found")) << rule;
    EXPECT_FALSE(found.count("modelnew-missing")) << rule;
    EXPECT_EQ(r.harness, "gpumode") << rule;
    EXPECT_EQ(r.verdict, "reject") << rule;
  }
}

TEST_F(HarnessPipeline, UnrecognisedPythonFileIsUnjudged) {
  const FileResult r = analyze_source("helper.py", "import torch\n\ndef scale(x):\n    return x * 2\n", context);
  EXPECT_EQ(r.harness, "");
  EXPECT_EQ(r.verdict, "unjudged");
  EXPECT_EQ(rules_of(r), std::set<std::string>{"entry-not-found"});
  EXPECT_TRUE(r.rejected);  // unjudged counts as rejected under a submission policy (exit 1)
  // A module-level cheat in it is still found, and then the verdict is reject.
  const FileResult cheat =
      analyze_source("helper.py", "import torch\ntorch.cuda.synchronize = lambda: None\n", context);
  EXPECT_TRUE(rules_of(cheat).count("timer-patch"));
  EXPECT_EQ(cheat.verdict, "reject");
}

TEST_F(HarnessPipeline, ModelEntryClassIsACandidate) {
  const FileResult r = analyze_source("solution.py",
                                      "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n"
                                      "    def forward(self, a, b):\n        return torch.matmul(a, b)\n\n"
                                      "def get_inputs():\n    return [torch.randn(4, 4), torch.randn(4, 4)]\n",
                                      context);
  EXPECT_EQ(r.harness, "model-entry");
  EXPECT_TRUE(rules_of(r).count("forward-reaches-no-kernel"));
  EXPECT_TRUE(rules_of(r).count("torch-function-in-forward"));
  EXPECT_EQ(r.verdict, "reject");
}

TEST_F(HarnessPipeline, StepIsAnEntryMethodOfModel) {
  const FileResult r = analyze_source("solution.py",
                                      "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n"
                                      "    def step(self, h, state):\n        return torch.tanh(h), state\n",
                                      context);
  EXPECT_EQ(r.harness, "model-entry");
  EXPECT_FALSE(rules_of(r).count("entry-not-found"));
  EXPECT_TRUE(rules_of(r).count("torch-function-in-forward"));
}

TEST_F(HarnessPipeline, ReferenceFileOfTheHarnessIsNotACandidate) {
  const FileResult r = analyze_source("problems/x/reference.py",
                                      "import torch\nfrom task import input_t, output_t\n\n"
                                      "def ref_kernel(data: input_t) -> output_t:\n    return data.clone()\n\n"
                                      "def custom_kernel(data):\n    return ref_kernel(data)\n",
                                      context);
  EXPECT_EQ(r.harness, "gpumode");
  EXPECT_EQ(r.verdict, "not-a-submission");
  EXPECT_TRUE(r.findings.empty());
}

TEST_F(HarnessPipeline, OperatorLibraryIsNotASubmission) {
  const FileResult r = analyze_source("ops.py",
                                      "import torch\nimport triton\nimport triton.language as tl\n\n"
                                      "@triton.jit\ndef _k(x, y, n, B: tl.constexpr):\n"
                                      "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
                                      "    tl.store(y + o, tl.load(x + o, mask=o < n), mask=o < n)\n\n"
                                      "def copy(x):\n    y = torch.empty_like(x)\n"
                                      "    _k[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), B=256)\n    return y\n",
                                      context);
  EXPECT_EQ(r.harness, "operator-library");
  EXPECT_EQ(r.verdict, "not-a-submission");
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().rule;
}

TEST_F(HarnessPipeline, ForcedHarnessNamesItsEntry) {
  context.harness.forced = "gpumode";
  const FileResult r = analyze_source("s.py", "import torch\n\ndef kernel(x):\n    return x\n", context);
  ASSERT_EQ(rules_of(r), std::set<std::string>{"entry-not-found"});
  EXPECT_NE(r.findings.front().message.find("custom_kernel"), std::string::npos) << r.findings.front().message;
  EXPECT_EQ(r.verdict, "unjudged");
}

TEST_F(HarnessPipeline, OutputArgumentMustBeWritten) {
  const std::string kernel =
      "import torch\nimport triton\nimport triton.language as tl\n\n"
      "@triton.jit\ndef _k(x, y, n, B: tl.constexpr):\n"
      "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
      "    tl.store(y + o, tl.load(x + o, mask=o < n), mask=o < n)\n\n";
  const FileResult honest = analyze_source(
      "s.py", kernel + "def solve(input, output, n):\n    _k[(triton.cdiv(n, 256),)](input, output, n, B=256)\n",
      context);
  EXPECT_EQ(honest.harness, "output-argument");
  EXPECT_EQ(honest.verdict, "pass") << (honest.findings.empty() ? "" : honest.findings.front().rule);
  const FileResult cheat = analyze_source("s.py",
                                          kernel +
                                              "def solve(input, output, n):\n    tmp = torch.empty_like(input)\n    "
                                              "_k[(triton.cdiv(n, 256),)](input, tmp, n, B=256)\n",
                                          context);
  EXPECT_TRUE(rules_of(cheat).count("output-unwritten"));
  // Writing the output in place is the entry's job, not input mutation.
  const FileResult in_place = analyze_source(
      "s.py",
      kernel +
          "def solve(input, output, n):\n    output.zero_()\n    _k[(triton.cdiv(n, 256),)](input, output, n, B=256)\n",
      context);
  EXPECT_FALSE(rules_of(in_place).count("input-mutation"));
  const FileResult mutation = analyze_source(
      "s.py",
      kernel +
          "def solve(input, output, n):\n    input.zero_()\n    _k[(triton.cdiv(n, 256),)](input, output, n, B=256)\n",
      context);
  EXPECT_TRUE(rules_of(mutation).count("input-mutation"));
}

// input-never-read judges the tensor inputs each profile names: annotated entry-function parameters
// (output-argument), the kept Model's forward (model-entry), and a rebound entry's parameters after the
// instance; not the sizes an entry may take from its tensors instead.
TEST_F(HarnessPipeline, InputsMustBeRead) {
  const std::string kernel =
      "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n\n"
      "@triton.jit\ndef _k(x, y, n, B: tl.constexpr):\n"
      "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
      "    tl.store(y + o, tl.load(x + o, mask=o < n), mask=o < n)\n\n";
  const auto analyze = [&](const std::string& body) { return analyze_source("s.py", kernel + body, context); };
  const std::string solve = "def solve(input: torch.Tensor, output: torch.Tensor, n: int, m):\n";
  const FileResult reads =
      analyze(solve + "    _k[(triton.cdiv(input.numel(), 256),)](input, output, input.numel(), B=256)\n");
  EXPECT_EQ(reads.harness, "output-argument");
  EXPECT_EQ(reads.verdict, "pass") << (reads.findings.empty() ? "" : reads.findings.front().rule);
  const FileResult shape_only =
      analyze(solve + "    _k[(triton.cdiv(n, 256),)](output, output, input.shape[0], B=256)\n");
  EXPECT_TRUE(rules_of(shape_only).count("input-never-read"));

  const std::string model =
      "class Model(nn.Module):\n    def forward(self, x):\n        y = torch.empty(x.shape, device=x.device)\n"
      "        _k[(1,)]({}, y, y.numel(), B=256)\n        return y\n\n"
      "def get_inputs():\n    return [torch.randn(256)]\n";
  const auto with = [&](const std::string& arg) {
    std::string text = model;
    return text.replace(text.find("{}"), 2, arg);
  };
  const FileResult model_reads = analyze(with("x"));
  EXPECT_EQ(model_reads.harness, "model-entry");
  EXPECT_FALSE(rules_of(model_reads).count("input-never-read"));
  EXPECT_TRUE(rules_of(analyze(with("y"))).count("input-never-read"));

  const std::string rebound =
      "def _forward(module, x):\n    y = torch.empty_like({})\n    _k[(1,)](x, y, y.numel(), B=256)\n"
      "    return y\n\nclass ModelNew(nn.Module):\n    pass\n\nModelNew.forward = _forward\n";
  std::string unread = rebound;
  unread.replace(unread.find("{}"), 2, "module.w");
  unread.replace(unread.find("](x,"), 4, "](y,");
  std::string read = rebound;
  read.replace(read.find("{}"), 2, "x");
  const FileResult rebound_reads = analyze(read);
  EXPECT_FALSE(rules_of(rebound_reads).count("input-never-read")) << rebound_reads.verdict;
  const FileResult rebound_unread = analyze(unread);
  ASSERT_TRUE(rules_of(rebound_unread).count("input-never-read"));
  for (const Diagnostic& f : rebound_unread.findings) {
    if (f.rule == "input-never-read") {
      EXPECT_NE(f.message.find("input x"), std::string::npos) << f.message;
    }
  }
}

TEST_F(HarnessPipeline, SiblingSourcesAreReadAndMissingOnesUnresolved) {
  ScratchDir dir;
  dir.write("k.cu", "__global__ void k(float* y) { y[0] = 1.f; }\n");
  const std::string py =
      "from pathlib import Path\nimport torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load\n"
      "ext = load(name='k', sources=[str(Path(__file__).parent / 'k.cu')])\n"
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        return ext.k(x)\n";
  const auto present = dir.write("present.py", py);
  FileResult r = analyze_file(present.string(), context);
  EXPECT_FALSE(rules_of(r).count("extension-sources-unresolved"));
  EXPECT_EQ(r.metrics.value("embedded_sources", 0), 1);
  std::filesystem::remove(dir.path() / "k.cu");
  r = analyze_file(present.string(), context);
  EXPECT_TRUE(rules_of(r).count("extension-sources-unresolved"));
  EXPECT_EQ(r.verdict, "reject");
}

}  // namespace
}  // namespace kgate
