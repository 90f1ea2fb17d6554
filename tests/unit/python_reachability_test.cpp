// Python fact extractor: reachability from ModelNew.forward (methods, module functions, Triton launches,
// partials, lambdas, autograd Functions, submodules, aliases, inheritance) and executed_at_import.
#include <gtest/gtest.h>

#include <algorithm>
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

int function_index(const FactSet& facts, std::string_view qualname) {
  for (size_t i = 0; i < facts.functions.size(); ++i)
    if (facts.functions[i].qualname == qualname) return static_cast<int>(i);
  return -1;
}

const Function* function(const FactSet& facts, std::string_view qualname) {
  int i = function_index(facts, qualname);
  return i < 0 ? nullptr : &facts.functions[i];
}

const Call* by_resolved(const FactSet& facts, std::string_view resolved) {
  for (const auto& c : facts.calls)
    if (c.resolved == resolved) return &c;
  return nullptr;
}

// Asserts that the named function exists and has the expected reachability.
void expect_reachable(const FactSet& facts, std::string_view qualname, bool reachable) {
  const Function* f = function(facts, qualname);
  ASSERT_NE(f, nullptr) << qualname;
  EXPECT_EQ(f->reachable, reachable) << qualname;
}

constexpr const char* kChain = R"PY(import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(out_ptr + pid, tl.load(x_ptr + pid))

def launch(x):
    out = torch.empty_like(x)
    add_kernel[(1,)](x, out, x.numel(), BLOCK=128)
    return out

def unused(x):
    return torch.mm(x, x)

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.ones(1)

    def helper(self, x):
        return launch(x)

    def forward(self, x):
        return self.helper(x)
)PY";

TEST(PythonReachability, ForwardThroughMethodAndFunctionToTritonLaunch) {
  auto r = extract(kChain);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.facts.entry, function_index(r.facts, "ModelNew.forward"));
  ASSERT_EQ(r.facts.entries.size(), 1u);
  expect_reachable(r.facts, "ModelNew.forward", true);
  expect_reachable(r.facts, "ModelNew.helper", true);
  expect_reachable(r.facts, "launch", true);
  expect_reachable(r.facts, "add_kernel", true);
  EXPECT_EQ(function(r.facts, "add_kernel")->kind, FunctionKind::TritonJit);
  ASSERT_EQ(function(r.facts, "add_kernel")->decorators.size(), 1u);
  EXPECT_EQ(function(r.facts, "add_kernel")->decorators[0], "triton.jit");

  ASSERT_EQ(r.facts.launches.size(), 1u);
  const Launch& l = r.facts.launches[0];
  EXPECT_EQ(l.kind, LaunchKind::Triton);
  EXPECT_EQ(l.kernel, "add_kernel");
  EXPECT_EQ(l.kernel_function, function_index(r.facts, "add_kernel"));
  EXPECT_EQ(l.grid, "(1,)");
  EXPECT_FALSE(l.grid_empty);
  EXPECT_EQ(l.function, function_index(r.facts, "launch"));
  EXPECT_TRUE(l.reachable);
  EXPECT_EQ(l.span.line, 12u);

  const Call* helper = by_resolved(r.facts, "ModelNew.helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_TRUE(helper->local_target);
  EXPECT_EQ(helper->receiver, ReceiverKind::Self);
  const Call* tl_load = by_resolved(r.facts, "triton.language.load");
  ASSERT_NE(tl_load, nullptr);
  EXPECT_TRUE(tl_load->reachable);
  EXPECT_EQ(r.facts.format, SubmissionFormat::KernelBenchTriton);
}

TEST(PythonReachability, UncalledModuleFunctionIsNotReachable) {
  auto r = extract(kChain);
  expect_reachable(r.facts, "unused", false);
  const Call* mm = by_resolved(r.facts, "torch.mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_FALSE(mm->reachable);
}

TEST(PythonReachability, InitIsExecutedAtImportButNotReachable) {
  auto r = extract(kChain);
  const Function* init = function(r.facts, "ModelNew.__init__");
  ASSERT_NE(init, nullptr);
  EXPECT_FALSE(init->reachable);
  EXPECT_TRUE(init->executed_at_import);
  const Call* ones = by_resolved(r.facts, "torch.ones");
  ASSERT_NE(ones, nullptr);
  EXPECT_FALSE(ones->reachable);
  EXPECT_EQ(ones->function, function_index(r.facts, "ModelNew.__init__"));
}

// Regression (found by these tests, fixed): a `def` at module level (or in a class body) adds a call-graph edge from
// the module body to the function ("a nested def is reached when its parent is"), and the module body is a root of the
// executed_at_import walk, so EVERY module-level function and method is executed_at_import, including
// ones nothing calls and ModelNew.forward itself. Defining a function does not run it.
TEST(PythonReachability, DefiningAFunctionDoesNotExecuteItAtImport) {
  auto r = extract(kChain);
  const Function* unused = function(r.facts, "unused");
  ASSERT_NE(unused, nullptr);
  EXPECT_FALSE(unused->executed_at_import);
  EXPECT_FALSE(function(r.facts, "ModelNew.forward")->executed_at_import);
  EXPECT_FALSE(function(r.facts, "add_kernel")->executed_at_import);
  EXPECT_TRUE(function(r.facts, "ModelNew.__init__")->executed_at_import);
}

TEST(PythonReachability, PartialsAndLambdasBoundToLocalsAndSelf) {
  auto r = extract(R"PY(import functools
import torch

def k1(x, scale):
    return x * scale

def k2(x, scale):
    return x * scale

def k3(x):
    return torch.relu(x)

def k4(x):
    return x

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.op = functools.partial(k2, scale=2)
        self.act = lambda t: k3(t)

    def forward(self, x):
        f = functools.partial(k1, scale=1)
        g = lambda t: t * 2
        y = f(x)
        y = self.op(y)
        return self.act(g(y))
)PY");
  expect_reachable(r.facts, "k1", true);
  expect_reachable(r.facts, "k2", true);
  expect_reachable(r.facts, "k3", true);
  expect_reachable(r.facts, "k4", false);
  expect_reachable(r.facts, "ModelNew.forward.<lambda>", true);
  expect_reachable(r.facts, "ModelNew.__init__.<lambda>", true);
  EXPECT_EQ(function(r.facts, "ModelNew.forward.<lambda>")->kind, FunctionKind::Lambda);
  const Call* relu = by_resolved(r.facts, "torch.relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_TRUE(relu->reachable);
  const Call* f = by_resolved(r.facts, "k1");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->callee, "f");
  EXPECT_TRUE(f->local_target);
}

TEST(PythonReachability, AutogradFunctionApplyReachesItsForward) {
  auto r = extract(R"PY(import torch

def kern(x):
    return torch.sigmoid(x)

class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return kern(x)

    @staticmethod
    def backward(ctx, g):
        return torch.tanh(g)

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return MyFn.apply(x)
)PY");
  const Call* apply = nullptr;
  for (const auto& c : r.facts.calls)
    if (c.callee == "MyFn.apply") apply = &c;
  ASSERT_NE(apply, nullptr);
  EXPECT_EQ(apply->resolved, "MyFn.forward");
  EXPECT_TRUE(apply->local_target);
  expect_reachable(r.facts, "MyFn.forward", true);
  expect_reachable(r.facts, "kern", true);
  expect_reachable(r.facts, "MyFn.backward", false);
  ASSERT_NE(by_resolved(r.facts, "torch.sigmoid"), nullptr);
  EXPECT_TRUE(by_resolved(r.facts, "torch.sigmoid")->reachable);
  EXPECT_FALSE(by_resolved(r.facts, "torch.tanh")->reachable);
}

TEST(PythonReachability, SubmoduleInstanceReachesItsForward) {
  auto r = extract(R"PY(import torch

def helper(x):
    return torch.exp(x)

class Sub(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.k = torch.zeros(1)

    def forward(self, x):
        return helper(x)

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = Sub()

    def forward(self, x):
        return self.sub(x)
)PY");
  const Call* c = nullptr;
  for (const auto& call : r.facts.calls)
    if (call.callee == "self.sub") c = &call;
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "Sub");
  EXPECT_TRUE(c->instance_call);
  EXPECT_TRUE(c->local_target);
  expect_reachable(r.facts, "Sub.forward", true);
  expect_reachable(r.facts, "helper", true);
  expect_reachable(r.facts, "Sub.__init__", false);
  EXPECT_TRUE(function(r.facts, "Sub.__init__")->executed_at_import);  // Sub() runs in ModelNew.__init__
  EXPECT_TRUE(by_resolved(r.facts, "torch.exp")->reachable);
}

TEST(PythonReachability, ModelNewAliasPicksTheAliasedClass) {
  auto r = extract(R"PY(import torch

class Other(torch.nn.Module):
    def forward(self, x):
        return torch.mm(x, x)

class Unrelated(torch.nn.Module):
    def forward(self, x):
        return torch.bmm(x, x)

ModelNew = Other
)PY");
  ASSERT_EQ(r.facts.entry, function_index(r.facts, "Other.forward"));
  expect_reachable(r.facts, "Other.forward", true);
  expect_reachable(r.facts, "Unrelated.forward", false);
  EXPECT_TRUE(by_resolved(r.facts, "torch.mm")->reachable);
  EXPECT_FALSE(by_resolved(r.facts, "torch.bmm")->reachable);
  const ClassDef* alias = nullptr;
  for (const auto& c : r.facts.classes)
    if (c.name == "ModelNew") alias = &c;
  ASSERT_NE(alias, nullptr);
  EXPECT_TRUE(alias->alias);
  ASSERT_EQ(alias->bases.size(), 1u);
  EXPECT_EQ(alias->bases[0], "Other");
  EXPECT_EQ(alias->span.line, 11u);
  EXPECT_EQ(r.facts.format, SubmissionFormat::KernelBenchPython);
}

TEST(PythonReachability, InheritedForwardFromALocalBase) {
  auto r = extract(R"PY(import torch

class Base(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)

class ModelNew(Base):
    def __init__(self):
        super().__init__()
)PY");
  ASSERT_EQ(r.facts.entry, function_index(r.facts, "Base.forward"));
  expect_reachable(r.facts, "Base.forward", true);
  EXPECT_TRUE(by_resolved(r.facts, "torch.relu")->reachable);
  const ClassDef* model = nullptr;
  for (const auto& c : r.facts.classes)
    if (c.name == "ModelNew") model = &c;
  ASSERT_NE(model, nullptr);
  EXPECT_FALSE(model->alias);
  ASSERT_EQ(model->bases.size(), 1u);
  EXPECT_EQ(model->bases[0], "Base");
}

// Regression (found by these tests, fixed): `self.go(x)` inside an inherited method resolves against the class that
// defines the method (Base.go), not against the override of the class that is run (ModelNew.go). Python dispatches on
// the instance, so ModelNew.go (and its torch.matmul) is what forward runs; the extractor marks
// Base.go reachable and ModelNew.go unreachable, which hides the torch call from the forward rules.
TEST(PythonReachability, OverrideCalledFromInheritedForwardIsReachable) {
  auto r = extract(R"PY(import torch

class Base(torch.nn.Module):
    def forward(self, x):
        return self.go(x)

    def go(self, x):
        return x

class ModelNew(Base):
    def go(self, x):
        return torch.matmul(x, x)
)PY");
  ASSERT_EQ(r.facts.entry, function_index(r.facts, "Base.forward"));
  expect_reachable(r.facts, "ModelNew.go", true);
  const Call* mm = by_resolved(r.facts, "torch.matmul");
  ASSERT_NE(mm, nullptr);
  EXPECT_TRUE(mm->reachable);
}

// Regression (found by these tests, fixed): `type(self).helper(self, x)` (and `self.__class__.helper`) is resolved as
// the tensor method torch.Tensor.helper, so ModelNew.helper, and the torch.matmul in it, are not reachable from
// forward.
TEST(PythonReachability, MethodCalledThroughTypeOfSelfIsReachable) {
  auto r = extract(R"PY(import torch

class ModelNew(torch.nn.Module):
    def helper(self, x):
        return torch.matmul(x, x)

    def forward(self, x):
        return type(self).helper(self, x)
)PY");
  expect_reachable(r.facts, "ModelNew.helper", true);
  const Call* mm = by_resolved(r.facts, "torch.matmul");
  ASSERT_NE(mm, nullptr);
  EXPECT_TRUE(mm->reachable);
}

TEST(PythonReachability, ModuleLevelCodeIsExecutedAtImport) {
  auto r = extract(R"PY(import torch

def setup():
    return torch.zeros(1)

BUF = setup()

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return x
)PY");
  const Function* setup = function(r.facts, "setup");
  ASSERT_NE(setup, nullptr);
  EXPECT_TRUE(setup->executed_at_import);
  EXPECT_FALSE(setup->reachable);
  const Call* call = by_resolved(r.facts, "setup");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->function, -1);
  EXPECT_FALSE(call->reachable);
}

// An op this file registers with torch.library.custom_op runs its implementation when forward calls
// it through torch.ops (with or without .default); an op of another library stays a torch.ops path.
TEST(PythonReachability, RegisteredCustomOpIsFollowedIntoItsImplementation) {
  auto r = extract(R"(import torch
import torch.nn as nn

@torch.library.custom_op("demo::scaled", mutates_args=())
def scaled(x: torch.Tensor) -> torch.Tensor:
    return torch.mul(x, 2.0)

@torch.library.custom_op("demo::unused", mutates_args=())
def unused(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x)

class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.ops.demo.scaled(x)
        y = torch.ops.demo.scaled.default(y)
        return torch.ops.other.op(y)
)");
  expect_reachable(r.facts, "scaled", true);
  expect_reachable(r.facts, "unused", false);
  const Call* mul = by_resolved(r.facts, "torch.mul");
  ASSERT_NE(mul, nullptr);
  EXPECT_TRUE(mul->reachable);
  EXPECT_NE(by_resolved(r.facts, "torch.ops.other.op"), nullptr);
}

// Callables that a class body binds: read through the class, and through a descriptor's __get__.
TEST(PythonReachability, ClassBodyCallablesAndDescriptors) {
  auto r = extract(R"(import operator
import torch
import torch.nn as nn

class Ops:
    product = staticmethod(torch.mm)

class Act:
    def __get__(self, obj, objtype=None):
        return torch.sigmoid

class ModelNew(nn.Module):
    act = Act()
    def forward(self, a, b):
        y = Ops.product(a, b)
        y = self.act(y)
        return operator.attrgetter("tanh")(torch)(y)
)");
  for (const char* name : {"torch.mm", "torch.sigmoid", "torch.tanh"}) {
    const Call* c = by_resolved(r.facts, name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_TRUE(c->reachable) << name;
  }
}

// A class decorator that returns another class, or a metaclass with a __call__, replaces what the
// harness builds; a decorator that returns the class it was given does not.
TEST(PythonReachability, EntryClassWrappers) {
  auto r = extract(R"(import torch.nn as nn

def register(cls):
    return cls

def swap(cls):
    return nn.ReLU

class Meta(type):
    def __call__(cls, *a):
        return nn.ReLU()

@register
@swap
class ModelNew(nn.Module, metaclass=Meta):
    def forward(self, x):
        return x
)");
  std::vector<std::string> replaced;
  for (const auto& c : r.facts.calls)
    if (std::find(c.keywords.begin(), c.keywords.end(), "@replaces-entry") != c.keywords.end())
      replaced.push_back(c.resolved);
  EXPECT_EQ(replaced, (std::vector<std::string>{"swap", "Meta.__call__"}));
}

// `Model.__call__ = f` or `ModelNew.forward = f` as a statement of the module body, with f defined in
// the file: f is the entry from then on. Under a condition or inside a function it is reported.
TEST(PythonReachability, EntryRebindingIsFollowed) {
  const std::string body = R"(import torch
import torch.nn as nn

def _launch(x):
    return x

class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)

    def _go(self, x):
        return _launch(x)

def _call(self, x):
    return self._go(x)

)";
  auto followed = extract(body + "ModelNew.__call__ = _call\n");
  EXPECT_EQ(followed.facts.entries, (std::vector<int>{function_index(followed.facts, "_call")}));
  EXPECT_EQ(followed.facts.entry, function_index(followed.facts, "_call"));
  expect_reachable(followed.facts, "ModelNew._go", true);  // its first parameter is the instance
  expect_reachable(followed.facts, "_launch", true);
  expect_reachable(followed.facts, "ModelNew.forward", false);
  ASSERT_EQ(followed.facts.writes.size(), 1u);
  EXPECT_TRUE(followed.facts.writes[0].entry_rebinding);
  for (const auto& c : followed.facts.calls)
    EXPECT_EQ(std::count(c.keywords.begin(), c.keywords.end(), "@rebinds-entry"), 0) << c.resolved;

  // Bound back to forward: forward stays the entry.
  auto same = extract(body + "ModelNew.__call__ = ModelNew.forward\n");
  EXPECT_EQ(same.facts.entries, (std::vector<int>{function_index(same.facts, "ModelNew.forward")}));

  for (const std::string& tail : {std::string("if True:\n    ModelNew.forward = _call\n"),
                                  std::string("def patch():\n    setattr(ModelNew, 'forward', _call)\n"),
                                  std::string("ModelNew.forward = nn.ReLU.forward\n")}) {
    auto reported = extract(body + tail);
    EXPECT_EQ(reported.facts.entries, (std::vector<int>{function_index(reported.facts, "ModelNew.forward")})) << tail;
    int rebinds = 0;
    for (const auto& c : reported.facts.calls)
      rebinds += static_cast<int>(std::count(c.keywords.begin(), c.keywords.end(), "@rebinds-entry"));
    EXPECT_EQ(rebinds, 1) << tail;
    for (const auto& w : reported.facts.writes) EXPECT_FALSE(w.entry_rebinding) << tail;
  }
}

}  // namespace
}  // namespace kgate
