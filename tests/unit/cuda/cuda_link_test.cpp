// The cross-language proof: Python extension launches reach C++ functions, reachability flows through
// the C++ call graph and live launches, and broken links are named.
#include <gtest/gtest.h>

#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

// A Python host with one extension whose C++ module holds `funcs` and `launches` built by hand.
struct Builder {
  FactSet f;
  Builder() {
    Module py;
    py.language = Language::Python;
    f.modules.push_back(py);
    Module cpp;
    cpp.language = Language::Cuda;
    cpp.role = "cuda_sources";
    cpp.extension = 0;
    f.modules.push_back(cpp);
    Extension e;
    e.name = "ext";
    e.functions = {"fwd"};
    f.extensions.push_back(e);
  }
  int function(const std::string& name, FunctionKind kind, std::vector<std::string> decorators = {}) {
    Function fn;
    fn.name = fn.qualname = name;
    fn.kind = kind;
    fn.module = 1;
    fn.decorators = std::move(decorators);
    f.functions.push_back(fn);
    return static_cast<int>(f.functions.size()) - 1;
  }
  void call(int from, const std::string& resolved, bool dead = false) {
    Call c;
    c.resolved = resolved;
    c.function = from;
    c.module = 1;
    c.guard.constant_false = dead;
    f.calls.push_back(c);
  }
  void launch(int from, int kernel, bool dead = false, bool empty = false) {
    Launch l;
    l.kind = LaunchKind::CudaChevron;
    l.kernel = f.functions[kernel].qualname;
    l.kernel_function = kernel;
    l.function = from;
    l.module = 1;
    l.guard.after_return = dead;
    l.grid_empty = empty;
    f.launches.push_back(l);
  }
  void python_launch(const std::string& kernel) {
    Launch l;
    l.kind = LaunchKind::Extension;
    l.kernel = kernel;
    l.reachable = true;
    l.module = 0;
    l.span = {9, 16, 9, 30};
    f.launches.push_back(l);
  }
};

TEST(CudaLink, ExtensionLaunchReachesKernelThroughHelpers) {
  Builder b;
  int fwd = b.function("fwd", FunctionKind::Host);
  int helper = b.function("launch_helper", FunctionKind::Host);
  int kernel = b.function("k", FunctionKind::CudaGlobal);
  int unused = b.function("unused", FunctionKind::Host);
  b.call(fwd, "launch_helper");
  b.launch(helper, kernel);
  b.call(unused, "at::matmul");
  b.python_launch("ext.fwd");
  link(b.f);
  EXPECT_TRUE(b.f.functions[fwd].reachable);
  EXPECT_TRUE(b.f.functions[helper].reachable);
  EXPECT_TRUE(b.f.functions[kernel].reachable);
  EXPECT_FALSE(b.f.functions[unused].reachable);
  EXPECT_TRUE(b.f.launches[0].reachable);
  EXPECT_FALSE(b.f.calls[1].reachable);
  EXPECT_EQ(b.f.launches.back().kernel_function, fwd);
  EXPECT_TRUE(broken_links(b.f).empty());
}

TEST(CudaLink, DeadCallsAndEmptyGridsDoNotPropagate) {
  Builder b;
  int fwd = b.function("fwd", FunctionKind::Host);
  int helper = b.function("helper", FunctionKind::Host);
  int kernel = b.function("k", FunctionKind::CudaGlobal);
  b.call(fwd, "helper", /*dead=*/true);
  b.launch(fwd, kernel, false, /*empty=*/true);
  b.launch(helper, kernel);
  b.python_launch("ext.fwd");
  link(b.f);
  EXPECT_FALSE(b.f.functions[helper].reachable);
  EXPECT_FALSE(b.f.functions[kernel].reachable);
  auto broken = broken_links(b.f);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].kind, "no-live-launch");
  EXPECT_EQ(broken[0].span.line, 9u);
}

TEST(CudaLink, KernelThatWritesNothingBreaksTheChain) {
  Builder b;
  int fwd = b.function("fwd", FunctionKind::Host);
  int kernel = b.function("k", FunctionKind::CudaGlobal, {"no-pointer-write"});
  b.launch(fwd, kernel);
  b.python_launch("ext.fwd");
  link(b.f);
  auto broken = broken_links(b.f);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].kind, "kernel-writes-nothing");
  EXPECT_NE(broken[0].message.find('k'), std::string::npos);
}

TEST(CudaLink, MissingFunctionAndExportedName) {
  Builder b;
  int impl = b.function("fwd_impl", FunctionKind::Host, {"export:fwd"});
  int kernel = b.function("k", FunctionKind::CudaGlobal);
  b.launch(impl, kernel);
  b.python_launch("ext.fwd");
  b.python_launch("ext.nope");
  link(b.f);
  EXPECT_TRUE(b.f.functions[impl].reachable) << "m.def(\"fwd\", &fwd_impl) binds fwd to fwd_impl";
  auto missing = missing_extension_functions(b.f);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(b.f.launches[missing[0]].kernel, "ext.nope");
}

TEST(CudaLink, RawRepositoryRootsAreTensorEntries) {
  FactSet f;
  Module m;
  m.language = Language::Cuda;
  f.modules.push_back(m);
  auto add = [&](const std::string& n, FunctionKind k, std::vector<std::string> d) {
    Function fn;
    fn.name = fn.qualname = n;
    fn.kind = k;
    fn.decorators = std::move(d);
    f.functions.push_back(fn);
  };
  add("entry", FunctionKind::Host, {"tensor-entry"});
  add("orphan", FunctionKind::Host, {});
  link(f);
  EXPECT_TRUE(f.functions[0].reachable);
  EXPECT_FALSE(f.functions[1].reachable);
}

}  // namespace
}  // namespace kgate::cuda
