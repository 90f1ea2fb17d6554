// Python fact extractor: the alias table and name resolution (imports, aliases, getattr/__dict__/vars,
// dynamic imports, shadowing, self attributes, tensor methods, the @ operator).
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

const Call* by_callee(const FactSet& facts, std::string_view callee) {
  for (const auto& c : facts.calls)
    if (c.callee == callee) return &c;
  return nullptr;
}

const Call* by_resolved(const FactSet& facts, std::string_view resolved) {
  for (const auto& c : facts.calls)
    if (c.resolved == resolved) return &c;
  return nullptr;
}

TEST(PythonAlias, ImportAsFollowsTheAlias) {
  auto r = extract(R"PY(import torch as t

def f(x):
    return t.mm(x, x)
)PY");
  EXPECT_TRUE(r.diagnostics.empty());
  const Call* c = by_callee(r.facts, "t.mm");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.mm");
  EXPECT_EQ(c->method, "mm");
  EXPECT_EQ(c->receiver, ReceiverKind::Module);
  EXPECT_FALSE(c->dynamic_name);
  EXPECT_FALSE(c->local_target);
  EXPECT_EQ(c->span.line, 4u);
  EXPECT_EQ(c->span.col, 12u);
  ASSERT_EQ(r.facts.imports.size(), 1u);
  EXPECT_EQ(r.facts.imports[0].module, "torch");
  EXPECT_EQ(r.facts.imports[0].alias, "t");
}

TEST(PythonAlias, FromImportAsFollowsTheAlias) {
  auto r = extract(R"PY(from torch import matmul as mm

def f(x):
    return mm(x, x)
)PY");
  const Call* c = by_callee(r.facts, "mm");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.matmul");
  EXPECT_EQ(c->method, "matmul");
  EXPECT_FALSE(c->dynamic_name);
  ASSERT_EQ(r.facts.imports.size(), 1u);
  EXPECT_EQ(r.facts.imports[0].module, "torch");
  EXPECT_EQ(r.facts.imports[0].name, "matmul");
  EXPECT_EQ(r.facts.imports[0].alias, "mm");
}

TEST(PythonAlias, ModuleAssignedToAVariable) {
  auto r = extract(R"PY(import torch
F = torch.nn.functional

def f(x):
    return F.relu(x)
)PY");
  const Call* c = by_callee(r.facts, "F.relu");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.nn.functional.relu");
  EXPECT_EQ(c->receiver, ReceiverKind::Module);
  EXPECT_FALSE(c->dynamic_name);
}

TEST(PythonAlias, FromPackageImportSubmoduleAs) {
  auto r = extract(R"PY(from torch.nn import functional as F

def f(x):
    return F.relu(x)
)PY");
  const Call* c = by_callee(r.facts, "F.relu");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.nn.functional.relu");
  EXPECT_EQ(c->method, "relu");
}

TEST(PythonAlias, GetattrWithAFoldedConcatenationIsDynamic) {
  auto r = extract(R"PY(import torch

def f(x):
    return getattr(torch, "mat" + "mul")(x, x)
)PY");
  const Call* c = by_resolved(r.facts, "torch.matmul");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->dynamic_name);
  EXPECT_FALSE(c->unresolved_dynamic);
  EXPECT_EQ(c->method, "matmul");
  // The getattr call itself is a fact too, with its folded name argument.
  const Call* g = by_resolved(r.facts, "builtins.getattr");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->string_args.size(), 1u);
  EXPECT_EQ(g->string_args[0], "matmul");
}

TEST(PythonAlias, GetattrWithAPlainLiteralIsNotDynamic) {
  auto r = extract(R"PY(import torch

def f(x):
    return getattr(torch, "matmul")(x, x)
)PY");
  const Call* c = by_resolved(r.facts, "torch.matmul");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->dynamic_name);
  EXPECT_FALSE(c->unresolved_dynamic);
}

TEST(PythonAlias, ModuleDictSubscriptIsDynamic) {
  auto r = extract(R"PY(import torch

def f(x):
    return torch.__dict__["matmul"](x, x)
)PY");
  const Call* c = by_resolved(r.facts, "torch.matmul");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->dynamic_name);
  EXPECT_EQ(c->callee, "torch.__dict__[\"matmul\"]");
  EXPECT_TRUE(r.facts.launches.empty());
}

TEST(PythonAlias, VarsOfAModuleSubscriptIsDynamic) {
  auto r = extract(R"PY(import torch

def f(x):
    return vars(torch)["matmul"](x, x)
)PY");
  const Call* c = by_resolved(r.facts, "torch.matmul");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->dynamic_name);
  EXPECT_NE(by_resolved(r.facts, "builtins.vars"), nullptr);
}

TEST(PythonAlias, ImportModuleWithAFoldedNameResolvesTheModule) {
  auto r = extract(R"PY(import importlib

def f():
    importlib.import_module("sub" + "process").run(["ls"])
)PY");
  const Call* c = by_resolved(r.facts, "subprocess.run");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->dynamic_name);
  EXPECT_EQ(c->method, "run");
  // The dynamic import is an import fact.
  bool found = false;
  for (const auto& im : r.facts.imports)
    if (im.module == "subprocess") {
      found = true;
      EXPECT_TRUE(im.dynamic);
      EXPECT_EQ(im.function, 0);
    }
  EXPECT_TRUE(found);
}

TEST(PythonAlias, DunderImportResolvesTheModule) {
  auto r = extract(R"PY(def f():
    __import__("os").system("ls")
)PY");
  const Call* c = by_resolved(r.facts, "os.system");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->dynamic_name);  // a plain literal name
  ASSERT_EQ(c->string_args.size(), 1u);
  EXPECT_EQ(c->string_args[0], "ls");
  const Call* imp = by_resolved(r.facts, "builtins.__import__");
  ASSERT_NE(imp, nullptr);
  bool found = false;
  for (const auto& im : r.facts.imports)
    if (im.module == "os" && im.dynamic) found = true;
  EXPECT_TRUE(found);
}

TEST(PythonAlias, UnfoldableGetattrNameIsUnresolvedDynamic) {
  auto r = extract(R"PY(import torch

def f(x, name):
    return getattr(torch, name)(x)
)PY");
  const Call* c = by_callee(r.facts, "getattr(torch, name)");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->unresolved_dynamic);
  EXPECT_EQ(c->resolved, "torch.?");
  EXPECT_NE(c->resolved, "torch.matmul");
}

TEST(PythonAlias, ParameterShadowsTheModule) {
  auto r = extract(R"PY(import torch

def f(torch, y):
    return torch.mm(y)

def g(y):
    return torch.mm(y, y)
)PY");
  ASSERT_EQ(r.facts.calls.size(), 2u);
  const Call& shadowed = r.facts.calls[0];
  EXPECT_EQ(shadowed.callee, "torch.mm");
  EXPECT_EQ(shadowed.resolved, "torch.Tensor.mm");
  EXPECT_EQ(shadowed.receiver, ReceiverKind::Param);
  const Call& real = r.facts.calls[1];
  EXPECT_EQ(real.resolved, "torch.mm");
  EXPECT_EQ(real.receiver, ReceiverKind::Module);
}

TEST(PythonAlias, LocalAssignmentShadowsTheModule) {
  auto r = extract(R"PY(import torch

def f(x):
    torch = x.clone()
    return torch.mm(x)
)PY");
  const Call* c = by_callee(r.facts, "torch.mm");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.Tensor.mm");
  EXPECT_NE(c->receiver, ReceiverKind::Module);
}

constexpr const char* kModel = R"PY(import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.w = nn.Parameter(torch.randn(4, 4))
        e = torch.cuda.Event(enable_timing=True)
        e.record()

    def forward(self, x, b):
        y = self.fc(x)
        z = self.w.t()
        s = x.sum()
        h = x.relu()
        return x @ b, h @ h
)PY";

TEST(PythonAlias, SelfAttributeBoundToAModuleIsAnInstanceCall) {
  auto r = extract(kModel);
  const Call* c = by_callee(r.facts, "self.fc");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.nn.Linear");
  EXPECT_TRUE(c->instance_call);
  EXPECT_EQ(c->receiver, ReceiverKind::Self);
  EXPECT_FALSE(c->local_target);
  EXPECT_TRUE(c->reachable);
  // The constructor call in __init__ is a plain call, not an instance call.
  const Call* ctor = by_callee(r.facts, "nn.Linear");
  ASSERT_NE(ctor, nullptr);
  EXPECT_EQ(ctor->resolved, "torch.nn.Linear");
  EXPECT_FALSE(ctor->instance_call);
  EXPECT_FALSE(ctor->reachable);
}

TEST(PythonAlias, ParameterAttributesAreTensors) {
  auto r = extract(kModel);
  const Call* c = by_callee(r.facts, "self.w.t");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.Tensor.t");
  EXPECT_EQ(c->method, "t");
  EXPECT_FALSE(c->instance_call);
}

TEST(PythonAlias, TensorMethodOnAParameter) {
  auto r = extract(kModel);
  const Call* c = by_callee(r.facts, "x.sum");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.Tensor.sum");
  EXPECT_EQ(c->receiver, ReceiverKind::Param);
  EXPECT_TRUE(c->reachable);
}

TEST(PythonAlias, ConstructedObjectMethodsFollowTheClass) {
  auto r = extract(kModel);
  const Call* c = by_callee(r.facts, "e.record");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "torch.cuda.Event.record");
  ASSERT_EQ(c->function >= 0, true);
  EXPECT_EQ(r.facts.functions[c->function].qualname, "ModelNew.__init__");
}

TEST(PythonAlias, MatmulOperatorIsACall) {
  auto r = extract(kModel);
  std::vector<const Call*> ops;
  for (const auto& c : r.facts.calls)
    if (c.resolved == "operator.matmul") ops.push_back(&c);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0]->callee, "@");
  EXPECT_EQ(ops[0]->method, "matmul");
  EXPECT_EQ(ops[0]->receiver, ReceiverKind::Param);  // x @ b: x is a parameter
  EXPECT_EQ(ops[1]->receiver, ReceiverKind::Value);  // h @ h: h is a local value
  EXPECT_TRUE(ops[0]->reachable);
  EXPECT_EQ(ops[0]->span.line, 17u);
  EXPECT_EQ(ops[0]->span.col, 16u);
}

TEST(PythonAlias, BuiltinsAndStringReceivers) {
  auto r = extract(R"PY(def f(path):
    s = "a,b"
    parts = s.split(",")
    return open(path), id(parts)
)PY");
  const Call* split = by_callee(r.facts, "s.split");
  ASSERT_NE(split, nullptr);
  EXPECT_EQ(split->resolved, "builtins.str.split");
  EXPECT_EQ(split->receiver, ReceiverKind::Literal);
  ASSERT_EQ(split->string_args.size(), 1u);
  EXPECT_EQ(split->string_args[0], ",");
  EXPECT_NE(by_resolved(r.facts, "builtins.open"), nullptr);
  EXPECT_NE(by_resolved(r.facts, "builtins.id"), nullptr);
}

}  // namespace
}  // namespace kgate
