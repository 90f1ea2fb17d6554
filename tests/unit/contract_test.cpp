// The dtype contract (docs/dtype-contract.md): the ranking of dtypes, where a file's contract comes
// from (forced, the harness's reference beside it, the config, the harness's default), and how the
// precision rules judge a conversion against it; and the reference's calls that a candidate makes alike
// (Call::mirrors_reference).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/core/config.h"
#include "analyzers/core/dtype_rank.h"
#include "analyzers/pipeline/contract.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

using kgate::testing::ScratchDir;

TEST(DtypeRank, NamesEveryWayTheExtractorsWriteThem) {
  EXPECT_EQ(contract_dtype("torch.bfloat16"), "bf16");
  EXPECT_EQ(contract_dtype("triton.language.float16"), "fp16");
  EXPECT_EQ(contract_dtype("triton.language.float8e4nv"), "fp8_e4m3");
  EXPECT_EQ(contract_dtype("torch.float8_e5m2"), "fp8_e5m2");
  EXPECT_EQ(contract_dtype("tf32"), "tf32");
  EXPECT_EQ(contract_dtype("autocast"), "fp16");
  EXPECT_EQ(contract_dtype("fp32"), "fp32");
  EXPECT_EQ(contract_dtype("torch.int8"), std::nullopt);
  EXPECT_EQ(contract_dtype("reduced-precision-reduction"), std::nullopt);
}

TEST(DtypeRank, BelowMeansFewerMantissaBits) {
  EXPECT_EQ(contract_relation("torch.bfloat16", "fp32"), "below");
  EXPECT_EQ(contract_relation("tf32", "fp32"), "below");
  EXPECT_EQ(contract_relation("torch.bfloat16", "bf16"), "within");
  EXPECT_EQ(contract_relation("torch.float16", "bf16"), "within");  // more mantissa than bf16
  EXPECT_EQ(contract_relation("torch.bfloat16", "fp16"), "below");  // fewer mantissa than fp16
  EXPECT_EQ(contract_relation("torch.float8_e4m3fn", "bf16"), "below");
  EXPECT_EQ(contract_relation("torch.float32", "bf16"), "within");
  EXPECT_EQ(contract_relation("torch.float16", ""), "unknown");
  EXPECT_EQ(contract_relation("torch.int8", "fp32"), "none");
}

constexpr const char* kBf16Reference = R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return (x.float() * 2).to(torch.bfloat16)

def get_inputs():
    return [torch.randn(8, 8, dtype=torch.bfloat16)]

if __name__ == "__main__":
    print(Model()(torch.randn(8, 8).to(torch.float8_e4m3fn)))
)";

constexpr const char* kFp32Reference = R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return x * 2

def get_inputs():
    return [torch.randn(8, 8)]
)";

// A kernelbench.com-style solution (class Model) whose forward converts to bf16 before its kernel.
constexpr const char* kSolution = R"(import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def _double(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

class Model(nn.Module):
    def forward(self, x):
        xb = x.to(torch.bfloat16)
        y = torch.empty_like(xb)
        _double[(1,)](xb, y, xb.numel(), BLOCK=1024)
        return y
)";

class Contract : public ::testing::Test {
 protected:
  void SetUp() override {
    auto load = load_rules(kgate::testing::source_rules_dir());
    ASSERT_TRUE(load.problems.empty());
    rules = std::move(load.rules);
    context.rules = &rules;
    context.policy = &policy;
    context.only_rules = {"precision-downgrade"};
  }
  // The precision-downgrade findings of the solution written into `dir`.
  std::vector<Diagnostic> findings(const FileResult& result) const {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : result.findings)
      if (d.rule == "precision-downgrade") out.push_back(d);
    return out;
  }
  RuleSet rules;
  Policy policy;
  AnalysisContext context;
  ScratchDir dir;
};

TEST_F(Contract, ReferenceBesideTheSolutionGivesIt) {
  dir.write("reference.py", kBf16Reference);
  const FileResult result = analyze_file(dir.write("solution.py", kSolution).string(), context);
  EXPECT_EQ(result.harness, "model-entry");
  EXPECT_EQ(result.contract.dtype, "bf16");  // the __main__ block's fp8 is the reference's test driver
  EXPECT_EQ(result.contract.source, "reference.py");
  EXPECT_TRUE(findings(result).empty());
  EXPECT_EQ(result.verdict, "pass");
}

TEST_F(Contract, Fp32ReferenceMakesTheSameConversionAnError) {
  dir.write("reference.py", kFp32Reference);
  const FileResult result = analyze_file(dir.write("solution.py", kSolution).string(), context);
  EXPECT_EQ(result.contract.dtype, "fp32");
  const auto found = findings(result);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::Error);
  EXPECT_NE(found[0].message.find("below the task's fp32 contract (from reference.py)"), std::string::npos)
      << found[0].message;
}

TEST_F(Contract, UnknownContractIsAWarningThatSaysSo) {
  const FileResult result = analyze_file(dir.write("solution.py", kSolution).string(), context);
  EXPECT_FALSE(result.contract.known());  // model-entry has no default, and nothing else said
  const auto found = findings(result);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::Warning);
  EXPECT_NE(found[0].message.find("contract is unknown"), std::string::npos) << found[0].message;
  EXPECT_EQ(result.verdict, "pass");
}

TEST_F(Contract, ForcedContractWinsOverTheReference) {
  dir.write("reference.py", kBf16Reference);
  context.contract = {"fp16", "--contract"};  // bf16 keeps fewer mantissa bits than fp16
  const FileResult result = analyze_file(dir.write("solution.py", kSolution).string(), context);
  EXPECT_EQ(result.contract.source, "--contract");
  ASSERT_EQ(findings(result).size(), 1u);
  EXPECT_EQ(findings(result)[0].severity, Severity::Error);
}

TEST_F(Contract, ConfigThenHarnessDefault) {
  Config config;
  config.contract = "bf16";
  config.source = "/ws/.kgate.yaml";
  context.config = &config;
  FileResult result = analyze_file(dir.write("solution.py", kSolution).string(), context);
  EXPECT_EQ(result.contract.dtype, "bf16");
  EXPECT_EQ(result.contract.source, "/ws/.kgate.yaml");
  EXPECT_TRUE(findings(result).empty());

  // KernelBench's harness runs fp32 unless told otherwise.
  context.config = nullptr;
  std::string kernelbench = kSolution;
  kernelbench.replace(kernelbench.find("class Model("), 12, "class ModelNew(");
  result = analyze_file(dir.write("kb.py", kernelbench).string(), context);
  EXPECT_EQ(result.harness, "kernelbench");
  EXPECT_EQ(result.contract.dtype, "fp32");
  ASSERT_EQ(findings(result).size(), 1u);
  EXPECT_EQ(findings(result)[0].severity, Severity::Error);
}

// A reference whose constructor seeds to build its weights, and candidates that seed alike or not.
constexpr const char* kSeededReference = R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, n, k):
        super().__init__()
        torch.manual_seed(0x5EED ^ (n * 31 + k))
        self.weight = nn.Parameter(torch.randn(n, k))

    def forward(self, x):
        return x @ self.weight.t()
)";

std::string seeded_solution(const std::string& init_seed, const std::string& forward_seed) {
  return R"(import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

class Model(nn.Module):
    def __init__(self, n, k):
        super().__init__()
        )" +
         init_seed + R"(
        self.weight = nn.Parameter(torch.randn(n, k))

    def forward(self, x):
        )" +
         forward_seed + R"(
        y = torch.empty_like(x)
        _copy[(1,)](x, y, x.numel(), BLOCK=1024)
        return y
)";
}

TEST_F(Contract, SeedTheReferenceMakesAlikeIsTheTasks) {
  context.only_rules = {"seed-rederive"};
  dir.write("reference.py", kSeededReference);
  const auto seeds = [&](const std::string& init_seed, const std::string& forward_seed) {
    const FileResult result =
        analyze_file(dir.write("solution.py", seeded_solution(init_seed, forward_seed)).string(), context);
    std::vector<uint32_t> lines;
    for (const Diagnostic& d : result.findings)
      if (d.rule == "seed-rederive") lines.push_back(d.span.line);
    return lines;
  };
  // The same call in the same function, spaced differently: no finding.
  EXPECT_EQ(seeds("torch.manual_seed(0x5EED ^ (n*31 + k))", "pass"), std::vector<uint32_t>{});
  // Another seed, or the reference's seed in another function: the candidate's own.
  EXPECT_EQ(seeds("torch.manual_seed(0x5EED ^ (n * 31 + k + 1))", "pass"), std::vector<uint32_t>{14});
  EXPECT_EQ(seeds("pass", "torch.manual_seed(0x5EED ^ (n * 31 + k))"), std::vector<uint32_t>{18});
  // Without the reference beside it, every seed is the candidate's.
  std::filesystem::remove(dir.path() / "reference.py");
  EXPECT_EQ(seeds("torch.manual_seed(0x5EED ^ (n * 31 + k))", "pass"), std::vector<uint32_t>{14});
}

// A LeetGPU-style challenge whose reference seeds PyTorch from its `seed` input, then draws.
constexpr const char* kSeedInputChallenge = R"(import ctypes
import torch

class Challenge:
    def reference_impl(self, logits, seed, token, n):
        probs = torch.softmax(logits, dim=0)
        value = seed.item()
        torch.manual_seed(value)
        token[0] = torch.multinomial(probs, 1)[0]

    def get_solve_signature(self):
        return {"logits": (ctypes.POINTER(ctypes.c_float), "in"), "seed": (ctypes.POINTER(ctypes.c_int32), "in"),
                "token": (ctypes.POINTER(ctypes.c_int64), "out"), "n": (ctypes.c_int, "in")}
)";

std::string seed_input_solution(const std::string& seeding) {
  return R"(import torch
import triton
import triton.language as tl

@triton.jit
def _softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + offs, e / tl.sum(e, axis=0), mask=offs < n)

def solve(logits, seed, token, n):
    probs = torch.empty_like(logits)
    _softmax[(1,)](logits, probs, n, BLOCK=1024)
    )" + seeding +
         R"(
    token.copy_(torch.multinomial(probs, 1))
)";
}

TEST_F(Contract, SeedTheTaskPassesInIsTheTasks) {
  context.only_rules = {"seed-rederive", "torch-function-in-forward", "tensor-method-in-forward"};
  dir.write("challenge.py", kSeedInputChallenge);
  // The rules that fire on the solution: a seed and a draw of its own choosing are findings.
  const auto rules_of = [&](const std::string& seeding) {
    const FileResult result = analyze_file(dir.write("solution.py", seed_input_solution(seeding)).string(), context);
    std::set<std::string> fired;
    for (const Diagnostic& d : result.findings) fired.insert(d.rule);
    return fired;
  };
  const std::set<std::string> none, both = {"seed-rederive", "torch-function-in-forward"};
  // The task's seed, however it is read: through locals, .item(), int(), a constant subscript.
  EXPECT_EQ(rules_of("torch.manual_seed(int(seed.item()))"), none);
  EXPECT_EQ(rules_of("s = seed[0].item()\n    t = int(s)\n    torch.manual_seed(t)"), none);
  EXPECT_EQ(rules_of("torch.cuda.manual_seed_all(seed=seed.item())"), none);
  // The reference's draw written as a tensor method is the same draw.
  EXPECT_EQ(rules_of("torch.manual_seed(seed.item())\n    token.copy_(probs.multinomial(1))\n    return"), none);
  // A number of the submission's own mixed in, another parameter, a constant, a global: its choice.
  EXPECT_EQ(rules_of("torch.manual_seed(int(seed.item()) * 0 + 1234)"), both);
  EXPECT_EQ(rules_of("torch.manual_seed(n)"), both);
  EXPECT_EQ(rules_of("torch.manual_seed(1234)"), both);
  EXPECT_EQ(rules_of("s = seed.item()\n    s = 1234\n    torch.manual_seed(s)"), both);
  EXPECT_EQ(rules_of("torch.manual_seed(SEED)"), both);
  EXPECT_EQ(rules_of("torch.manual_seed(seed.item() + n)"), both);
  EXPECT_EQ(rules_of("torch.manual_seed(seed.numel())"), both);
  EXPECT_EQ(rules_of("torch.manual_seed(int(seed.item() - seed.item()))"), both);
  EXPECT_EQ(rules_of("torch.manual_seed(seed.shape[0])"), both);
  // No seed of the task's: the draw is the submission's own PyTorch call.
  EXPECT_EQ(rules_of("pass"), std::set<std::string>{"torch-function-in-forward"});
  // Without the challenge beside it, the task seeds nothing.
  std::filesystem::remove(dir.path() / "challenge.py");
  EXPECT_EQ(rules_of("torch.manual_seed(int(seed.item()))"), both);
}

TEST(ContractConfig, RejectsAnUnknownDtype) {
  EXPECT_TRUE(parse_config("contract: bf16\n", "c.yaml", "/").has_value());
  auto bad = parse_config("contract: float17\n", "c.yaml", "/");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().find("fp32"), std::string::npos) << bad.error();
}

TEST(ContractOfReference, LowestFloatingDtypeOutsideMain) {
  FactSet facts;
  facts.casts.push_back(Cast{"torch.int8", "keyword", 0, 0, false, false, {}});
  EXPECT_EQ(contract_of_reference(facts, "reference.py").dtype, "fp32");           // ints say nothing
  facts.casts.push_back(Cast{"torch.float16", "keyword", 0, 0, false, true, {}});  // get_inputs: set-up, still the task
  EXPECT_EQ(contract_of_reference(facts, "reference.py").dtype, "fp16");
  facts.casts.push_back(Cast{"torch.float8_e4m3fn", "method", -1, 0, false, true, {}});  // a __main__ block
  EXPECT_EQ(contract_of_reference(facts, "reference.py").dtype, "fp16");
  facts.casts.push_back(Cast{"tf32", "flag", -1, 0, false, false, {}});
  EXPECT_EQ(contract_of_reference(facts, "reference.py").dtype, "fp16");
}

// The positional layout an output-argument entry gets from a task's reference: get_inputs()'s tensors
// (number constants left out), then one output per tensor Model.forward returns.
TEST(ReferenceEntryLayout, ReadFromTheReturnsWrittenOut) {
  ScratchDir dir;
  const auto layout = [&](const std::string& name, const std::string& text) {
    ReferenceSummaries summaries;
    const ReferenceSummary s = summaries.of(dir.write(name, text), ingest::Limits{});
    return std::make_pair(s.tensor_inputs ? static_cast<int>(*s.tensor_inputs) : -1,
                          s.outputs ? static_cast<int>(*s.outputs) : -1);
  };
  const std::string model =
      "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, x, y, k):\n";
  EXPECT_EQ(
      layout("two_outputs.py",
             model + "        return (x * y).sum(-1), x.amax(-1)\n\n"
                     "dim = 300\nscale = 0.5\n\n"
                     "def get_inputs():\n    return [torch.randn(8, dim), torch.randn(8, dim), dim, scale, -1]\n"),
      std::make_pair(2, 2));
  EXPECT_EQ(
      layout("one_output.py", model + "        if k > 0:\n            return x + y\n        return x - y\n\n"
                                      "def get_inputs():\n    a = torch.randn(4)\n    return a, torch.randn(4), 3\n"),
      std::make_pair(2, 1));
  // Returns of different lengths, and inputs that are not written out: unknown.
  EXPECT_EQ(layout("unknown.py", model + "        if k > 0:\n            return x, y\n        return x\n\n"
                                         "def get_inputs():\n    inputs = [torch.randn(4)]\n    return inputs\n"),
            std::make_pair(-1, -1));
}

// LeetGPU's challenge.py declares solve's parameters by name: "out" and "inout" are outputs, "in"
// pointers are inputs, "in" scalars neither. A dict that is not written out gives no names.
TEST(ReferenceEntryLayout, SolveSignatureByName) {
  ScratchDir dir;
  const auto names = [&](const std::string& name, const std::string& text) {
    ReferenceSummaries summaries;
    const ReferenceSummary s = summaries.of(dir.write(name, text), ingest::Limits{});
    return std::make_pair(s.output_names, s.input_names);
  };
  using Names = std::pair<std::vector<std::string>, std::vector<std::string>>;
  const std::string head = "import ctypes\n\nclass Challenge:\n    def get_solve_signature(self):\n";
  EXPECT_EQ(names("challenge.py", head + "        return {\n"
                                         "            'a': (ctypes.POINTER(ctypes.c_float), 'in'),\n"
                                         "            \"c\": (ctypes.POINTER(ctypes.c_float), \"out\"),\n"
                                         "            'buf': (ctypes.POINTER(ctypes.c_int), 'inout'),\n"
                                         "            'n': (ctypes.c_int, 'in'),\n"
                                         "        }\n"),
            (Names{{"c", "buf"}, {"a"}}));
  EXPECT_EQ(names("spread.py", head + "        base = {'n': (ctypes.c_int, 'in')}\n"
                                      "        return {**base, 'c': (ctypes.POINTER(ctypes.c_float), 'out')}\n"),
            Names{});
  EXPECT_EQ(names("odd_direction.py", head + "        return {'c': (ctypes.POINTER(ctypes.c_float), 'sideways')}\n"),
            Names{});
}

// Each declared parameter's element dtype, by position: what a kernel loads through that pointer
// (a default tl.dot over int8 data the task hands in is exact in TF32). Scalars and unknown ctypes
// names give "", and LeetGPU's c_uint16 (its fp16 and bf16 buffers) says only "uint16".
TEST(ReferenceEntryLayout, SolveSignatureDtypesByPosition) {
  ScratchDir dir;
  ReferenceSummaries summaries;
  const std::string text =
      "import ctypes\n\nclass Challenge:\n    def get_solve_signature(self):\n        return {\n"
      "            'A': (ctypes.POINTER(ctypes.c_int8), 'in'),\n"
      "            'B': (ctypes.POINTER(ctypes.c_ubyte), 'in'),\n"
      "            'H': (ctypes.POINTER(ctypes.c_uint16), 'in'),\n"
      "            'C': (ctypes.POINTER(ctypes.c_float), 'out'),\n"
      "            'M': (ctypes.c_int, 'in'),\n"
      "            'W': (ctypes.POINTER(ctypes.c_half), 'in'),\n"
      "        }\n";
  const ReferenceSummary s = summaries.of(dir.write("challenge.py", text), ingest::Limits{});
  EXPECT_EQ(s.param_dtypes, (std::vector<std::string>{"int8", "uint8", "uint16", "float32", "", ""}));
  EXPECT_EQ(ctypes_pointee_dtype("ctypes.POINTER(ctypes.c_bool)"), "bool");
  EXPECT_EQ(ctypes_pointee_dtype("POINTER(c_int64)"), "int64");
  EXPECT_EQ(ctypes_pointee_dtype("ctypes.c_int8"), "");
}

// The task says which of solve's tensors hold one element: its reference asserts the shape, or every
// test its generators build makes that name with torch.empty(1) (directly or through a local).
TEST(ReferenceEntryLayout, OneElementParameters) {
  ScratchDir dir;
  const auto one_element = [&](const std::string& name, const std::string& body) {
    ReferenceSummaries summaries;
    return summaries
        .of(dir.write(name, "import ctypes\nimport torch\n\nclass Challenge:\n" + body +
                                "    def get_solve_signature(self):\n"
                                "        return {'x': (ctypes.POINTER(ctypes.c_float), 'in'),\n"
                                "                'loss': (ctypes.POINTER(ctypes.c_float), 'out'),\n"
                                "                'count': (ctypes.POINTER(ctypes.c_int), 'out'),\n"
                                "                'n': (ctypes.c_int, 'in')}\n"),
            ingest::Limits{})
        .one_element_names;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(one_element("asserted.py",
                        "    def reference_impl(self, x, loss, count, n):\n"
                        "        assert x.shape == (n,) and loss.shape == (1,)\n"
                        "        assert count.numel() == 1\n"),
            (Names{"loss", "count"}));
  EXPECT_EQ(one_element("generated.py",
                        "    def generate_example_test(self):\n"
                        "        loss = torch.empty(1, device='cuda')\n"
                        "        return {'x': torch.randn(8), 'loss': loss, 'count': torch.zeros(8), 'n': 8}\n"
                        "    def generate_functional_test(self):\n"
                        "        return [{'x': torch.randn(k), 'loss': torch.tensor([0.0]),\n"
                        "                 'count': torch.zeros((1,)), 'n': k} for k in (1, 9)]\n"),
            Names{"loss"});
  // A test that builds it bigger, or a local assigned a bigger tensor anywhere: not one element.
  EXPECT_EQ(
      one_element("mixed.py",
                  "    def generate_example_test(self):\n"
                  "        loss = torch.empty(1)\n"
                  "        if self.big:\n"
                  "            loss = torch.empty(4)\n"
                  "        return {'x': torch.randn(8), 'loss': loss, 'count': torch.zeros(1), 'n': 8}\n"
                  "    def generate_performance_test(self):\n"
                  "        return {'x': torch.randn(8), 'loss': torch.empty(1), 'count': torch.zeros(8), 'n': 8}\n"),
      Names{});
}

constexpr const char* kOneElementChallenge = R"(import ctypes
import torch

class Challenge:
    def reference_impl(self, a, b, err, N):
        assert err.shape == (1,)
        err[0] = torch.mean(torch.abs(a - b))

    def get_solve_signature(self):
        return {"a": (ctypes.POINTER(ctypes.c_float), "in"), "b": (ctypes.POINTER(ctypes.c_float), "in"),
                "err": (ctypes.POINTER(ctypes.c_float), "out"), "N": (ctypes.c_int, "in")}
)";

// Arithmetic on a one-element output with numbers is glue; on the inputs it is still PyTorch's work.
TEST_F(Contract, OneElementOutputArithmeticIsGlue) {
  context.only_rules = {"tensor-method-in-forward"};
  const auto flagged = [&](const std::string& epilogue) {
    const FileResult result = analyze_file(dir.write("solution.py", R"(import torch
import triton
import triton.language as tl

@triton.jit
def _abs_sum(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    d = tl.load(a_ptr + offs, mask=offs < n, other=0.0) - tl.load(b_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(tl.abs(d), axis=0))

def solve(a: torch.Tensor, b: torch.Tensor, err: torch.Tensor, N: int):
    err.zero_()
    _abs_sum[(triton.cdiv(N, 1024),)](a, b, err, N, BLOCK=1024)
    )" + epilogue + "\n")
                                               .string(),
                                           context);
    std::vector<std::string> methods;
    for (const Diagnostic& d : result.findings) methods.push_back(d.message.substr(0, d.message.find(':')));
    return methods;
  };
  using Found = std::vector<std::string>;
  dir.write("challenge.py", kOneElementChallenge);
  EXPECT_EQ(flagged("err /= N"), Found{});
  EXPECT_EQ(flagged("err.div_(N)"), Found{});
  EXPECT_EQ(flagged("err.mul_(1.0 / N)"), Found{});
  EXPECT_EQ(flagged("err += (a - b).abs().mean()").size(), 3u);  // __sub__, abs, mean: not glue
  EXPECT_EQ(flagged("err.div_(a.sum())"), Found{"solve computes with torch.Tensor.sum"});
  // Without the task, nothing says err holds one element.
  std::filesystem::remove(dir.path() / "challenge.py");
  EXPECT_EQ(flagged("err /= N"), Found{"solve computes with torch.Tensor.__itruediv__"});
}

}  // namespace
}  // namespace kgate
