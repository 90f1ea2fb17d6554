// Python fact extractor: guards on calls and launches (constant-false branches, code after return,
// training branches, impossible shape tests, try/except, side streams, empty grids) and how they
// gate reachability.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/python/python_facts.h"

namespace kgate {
namespace {

struct Extracted {
  SourceFile file;
  FactSet facts;
  std::vector<Diagnostic> diagnostics;
};

Extracted extract(const std::string& text) {
  Extracted out{SourceFile("sub.py", text), {}, {}};
  python::extract_facts(out.file, ingest::Limits{}, out.facts, out.diagnostics);
  return out;
}

const Call& call(const FactSet& facts, std::string_view resolved) {
  for (const auto& c : facts.calls)
    if (c.resolved == resolved) return c;
  ADD_FAILURE() << "no call resolved to " << resolved;
  static const Call none;
  return none;
}

const Launch& launch_at(const FactSet& facts, uint32_t line) {
  for (const auto& l : facts.launches)
    if (l.span.line == line) return l;
  ADD_FAILURE() << "no launch on line " << line;
  static const Launch none;
  return none;
}

const Function* function(const FactSet& facts, std::string_view qualname) {
  for (const auto& f : facts.functions)
    if (f.qualname == qualname) return &f;
  return nullptr;
}

// Line numbers below are relied on by launch_at().
constexpr const char* kGuards = R"PY(import torch
import triton
import triton.language as tl

DEBUG = False

@triton.jit
def k(x_ptr):
    tl.store(x_ptr, 0)

@triton.jit
def dead_k(x_ptr):
    tl.store(x_ptr, 1)

class ModelNew(torch.nn.Module):
    def forward(self, x, s, n):
        if False:
            dead_k[(1,)](x)
        if 0:
            torch.mm(x, x)
        if DEBUG:
            torch.bmm(x, x)
        while False:
            torch.addmm(x, x, x)
        if True:
            torch.abs(x)
        else:
            torch.neg(x)
        y = torch.ceil(x) if False else x
        if self.training:
            torch.relu(x)
        else:
            torch.selu(x)
        if x.shape[0] < 0:
            torch.sigmoid(x)
        else:
            torch.tanh(x)
        if x.numel() == -1:
            torch.log1p(x)
        try:
            k[(n,)](x)
        except RuntimeError:
            torch.exp(x)
        finally:
            torch.sqrt(x)
        with torch.cuda.stream(s):
            torch.sin(x)
        k[(0,)](x)
        k[lambda meta: (0, 1)](x)
        if n > 1:
            return torch.cos(x)
        torch.floor(x)
        return x
        torch.log(x)
)PY";

TEST(PythonGuards, ConstantFalseBranches) {
  auto r = extract(kGuards);
  EXPECT_TRUE(r.diagnostics.empty());
  for (const char* name : {"torch.mm", "torch.bmm", "torch.addmm", "torch.neg", "torch.ceil"}) {
    const Call& c = call(r.facts, name);
    EXPECT_TRUE(c.guard.constant_false) << name;
    EXPECT_TRUE(c.guard.dead()) << name;
    EXPECT_FALSE(c.reachable) << name;
  }
  const Call& live = call(r.facts, "torch.abs");
  EXPECT_FALSE(live.guard.constant_false);
  EXPECT_TRUE(live.reachable);
}

TEST(PythonGuards, LaunchUnderIfFalseIsNotReachable) {
  auto r = extract(kGuards);
  const Launch& l = launch_at(r.facts, 18);
  EXPECT_EQ(l.kernel, "dead_k");
  EXPECT_TRUE(l.guard.constant_false);
  EXPECT_FALSE(l.reachable);
  const Function* dead = function(r.facts, "dead_k");
  ASSERT_NE(dead, nullptr);
  EXPECT_FALSE(dead->reachable);  // launched only from a dead branch
  const Function* live = function(r.facts, "k");
  ASSERT_NE(live, nullptr);
  EXPECT_TRUE(live->reachable);
  // The kernel body's calls follow their function.
  EXPECT_TRUE(call(r.facts, "triton.language.store").reachable);
}

TEST(PythonGuards, CodeAfterReturn) {
  auto r = extract(kGuards);
  const Call& after = call(r.facts, "torch.log");
  EXPECT_TRUE(after.guard.after_return);
  EXPECT_FALSE(after.guard.constant_false);
  EXPECT_FALSE(after.reachable);
  // A return inside an if does not make the code after the if dead.
  const Call& floor = call(r.facts, "torch.floor");
  EXPECT_FALSE(floor.guard.after_return);
  EXPECT_TRUE(floor.reachable);
  EXPECT_TRUE(call(r.facts, "torch.cos").reachable);
}

TEST(PythonGuards, TrainingBranchesAreMarkedButLive) {
  auto r = extract(kGuards);
  for (const char* name : {"torch.relu", "torch.selu"}) {
    const Call& c = call(r.facts, name);
    EXPECT_TRUE(c.guard.training) << name;
    EXPECT_FALSE(c.guard.dead()) << name;
    EXPECT_TRUE(c.reachable) << name;
  }
  EXPECT_FALSE(call(r.facts, "torch.abs").guard.training);
}

TEST(PythonGuards, ImpossibleShapeTests) {
  auto r = extract(kGuards);
  const Call& neg = call(r.facts, "torch.sigmoid");
  EXPECT_TRUE(neg.guard.impossible_shape);
  EXPECT_TRUE(neg.guard.shape_test);
  EXPECT_FALSE(neg.reachable);
  const Call& numel = call(r.facts, "torch.log1p");
  EXPECT_TRUE(numel.guard.impossible_shape);
  EXPECT_FALSE(numel.reachable);
  // The else branch of an impossible test always runs: a shape test, not dead.
  const Call& other = call(r.facts, "torch.tanh");
  EXPECT_FALSE(other.guard.impossible_shape);
  EXPECT_TRUE(other.guard.shape_test);
  EXPECT_TRUE(other.reachable);
}

TEST(PythonGuards, TryBodyAndExceptHandler) {
  auto r = extract(kGuards);
  const Launch& in_try = launch_at(r.facts, 41);
  EXPECT_EQ(in_try.kernel, "k");
  EXPECT_TRUE(in_try.guard.in_try);
  EXPECT_FALSE(in_try.guard.in_except);
  EXPECT_TRUE(in_try.reachable);
  const Call& handler = call(r.facts, "torch.exp");
  EXPECT_TRUE(handler.guard.in_except);
  EXPECT_FALSE(handler.guard.in_try);
  EXPECT_TRUE(handler.reachable);
  const Call& fin = call(r.facts, "torch.sqrt");
  EXPECT_FALSE(fin.guard.in_try);
  EXPECT_FALSE(fin.guard.in_except);
  ASSERT_EQ(r.facts.handlers.size(), 1u);
  const ExceptHandler& h = r.facts.handlers[0];
  EXPECT_TRUE(h.try_has_launch);
  EXPECT_TRUE(h.handler_has_torch_call);
  EXPECT_TRUE(h.reachable);
  ASSERT_EQ(h.catches.size(), 1u);
  EXPECT_NE(h.catches[0].find("RuntimeError"), std::string::npos);
  EXPECT_EQ(h.span.line, 42u);
}

TEST(PythonGuards, SideStreamContext) {
  auto r = extract(kGuards);
  const Call& body = call(r.facts, "torch.sin");
  EXPECT_TRUE(body.guard.side_stream);
  EXPECT_TRUE(body.reachable);
  const Call& ctx = call(r.facts, "torch.cuda.stream");
  EXPECT_FALSE(ctx.guard.side_stream);
  EXPECT_FALSE(call(r.facts, "torch.sqrt").guard.side_stream);
}

TEST(PythonGuards, EmptyGrids) {
  auto r = extract(kGuards);
  const Launch& zero = launch_at(r.facts, 48);
  EXPECT_EQ(zero.grid, "(0,)");
  EXPECT_TRUE(zero.grid_empty);
  const Launch& lambda_zero = launch_at(r.facts, 49);
  EXPECT_EQ(lambda_zero.grid, "lambda meta: (0, 1)");
  EXPECT_TRUE(lambda_zero.grid_empty);
  const Launch& dynamic = launch_at(r.facts, 41);
  EXPECT_EQ(dynamic.grid, "(n,)");
  EXPECT_FALSE(dynamic.grid_empty);
  EXPECT_EQ(r.facts.launches.size(), 4u);
}

TEST(PythonGuards, GridBoundToAModuleConstant) {
  auto r = extract(R"PY(import triton

EMPTY = (0,)
FULL = (4,)

@triton.jit
def k(x_ptr):
    pass

class ModelNew:
    def forward(self, x):
        k[EMPTY](x)
        k[FULL](x)
)PY");
  ASSERT_EQ(r.facts.launches.size(), 2u);
  EXPECT_TRUE(r.facts.launches[0].grid_empty);
  EXPECT_FALSE(r.facts.launches[1].grid_empty);
  EXPECT_TRUE(r.facts.launches[0].reachable);
}

TEST(PythonGuards, ElifChainsAndNegatedConditions) {
  auto r = extract(R"PY(import torch

FLAG = 0

class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x.dim() > 2:
            a = torch.mm(x, x)
        elif False:
            a = torch.bmm(x, x)
        else:
            a = torch.relu(x)
        if not FLAG:
            b = torch.exp(x)
        if not self.training:
            c = torch.tanh(x)
        return a
)PY");
  EXPECT_FALSE(call(r.facts, "torch.mm").guard.dead());
  EXPECT_TRUE(call(r.facts, "torch.mm").guard.shape_test);
  EXPECT_TRUE(call(r.facts, "torch.bmm").guard.constant_false);
  EXPECT_FALSE(call(r.facts, "torch.relu").guard.dead());
  EXPECT_FALSE(call(r.facts, "torch.exp").guard.constant_false);  // not 0 is true
  EXPECT_TRUE(call(r.facts, "torch.exp").reachable);
  EXPECT_TRUE(call(r.facts, "torch.tanh").guard.training);
}

// Regression (found by these tests, fixed): a module flag rebound through `global DEBUG; DEBUG = True` in __init__ is
// still folded to its module-level value False, so the branch is marked constant_false and its torch.matmul
// unreachable, although forward runs it. The constant folder only sees bindings made in the module scope.
TEST(PythonGuards, FlagReboundThroughGlobalIsNotConstant) {
  auto r = extract(R"PY(import torch

DEBUG = False

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        global DEBUG
        DEBUG = True

    def forward(self, x):
        if DEBUG:
            return torch.matmul(x, x)
        return x
)PY");
  const Call& mm = call(r.facts, "torch.matmul");
  EXPECT_FALSE(mm.guard.constant_false);
  EXPECT_TRUE(mm.reachable);
}

// Regression (found by these tests, fixed): augmented assignments are not bindings for the folder: after `FLAG = 0;
// FLAG += 1` the flag still folds to 0, so `if FLAG:` is taken as constant_false and the torch.matmul under it is dead.
TEST(PythonGuards, FlagChangedByAugmentedAssignmentIsNotConstant) {
  auto r = extract(R"PY(import torch

FLAG = 0
FLAG += 1

class ModelNew(torch.nn.Module):
    def forward(self, x):
        if FLAG:
            return torch.matmul(x, x)
        return x
)PY");
  const Call& mm = call(r.facts, "torch.matmul");
  EXPECT_FALSE(mm.guard.constant_false);
  EXPECT_TRUE(mm.reachable);
}

// Regression (found by these tests, fixed): impossible_shape() asks whether the compared expression merely mentions
// .shape/.dim(/len(, so arithmetic on a size (`x.dim() - 8 < 0`, `-x.shape[0] < 0`), which is usually TRUE, is taken as
// an impossible test: the branch is dead and the torch call in it unreachable.
TEST(PythonGuards, ArithmeticOnASizeIsNotAnImpossibleTest) {
  auto r = extract(R"PY(import torch

class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x.dim() - 8 < 0:
            return torch.matmul(x, x)
        if -x.shape[0] < 0:
            return torch.mm(x, x)
        return x
)PY");
  for (const char* name : {"torch.matmul", "torch.mm"}) {
    const Call& c = call(r.facts, name);
    EXPECT_FALSE(c.guard.impossible_shape) << name;
    EXPECT_TRUE(c.guard.shape_test) << name;
    EXPECT_TRUE(c.reachable) << name;
  }
}

}  // namespace
}  // namespace kgate
