// The cross-language proof: Python extension launches reach C++ functions, reachability flows through
// the C++ call graph and live launches, and broken links are named.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

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

// An allocation helper hands its buffer to its C++ callers, through a middle helper that returns the
// first's result directly: the exported function's return carries the allocation's origin and stays
// unwritten, unless a kernel writes it or the helper returned is one that launches.
const char* kAllocationChain = R"(#include <torch/extension.h>
__global__ void fill(float* y, int64_t n) { if (threadIdx.x < n) y[threadIdx.x] = 1.f; }
static torch::Tensor allocate_like(const torch::Tensor& x) { return torch::empty_like(x); }
static torch::Tensor make_result(const torch::Tensor& x) { return allocate_like(x); }
static torch::Tensor launch_fill(const torch::Tensor& x) {
  auto out = torch::empty_like(x);
  fill<<<1, 256>>>(out.data_ptr<float>(), out.numel());
  return out;
}
torch::Tensor direct(torch::Tensor x) { return make_result(x); }
torch::Tensor stored(torch::Tensor x) { auto out = make_result(x); return out; }
torch::Tensor written(torch::Tensor x) {
  auto out = make_result(x);
  fill<<<1, 256>>>(out.data_ptr<float>(), out.numel());
  return out;
}
torch::Tensor forwarded(torch::Tensor x) { return launch_fill(x); }
torch::Tensor filled(torch::Tensor x) { return torch::empty_like(x).fill_(1.f); }
)";

void expect_allocation_chain(const FactSet& f, const std::string& engine) {
  SCOPED_TRACE(engine);
  const auto return_of = [&](const std::string& name) -> const Return* {
    for (const auto& r : f.returns)
      if (r.function >= 0 && f.functions[r.function].qualname == name) return &r;
    return nullptr;
  };
  const auto empty_origin = [](const Return& r) {
    return std::any_of(r.origins.begin(), r.origins.end(),
                       [](const std::string& o) { return o.find("empty_like") != std::string::npos; });
  };
  for (const char* name : {"direct", "stored"}) {
    const Return* r = return_of(name);
    ASSERT_TRUE(r) << name;
    EXPECT_FALSE(r->written) << name;
    EXPECT_TRUE(empty_origin(*r)) << name;
  }
  for (const char* name : {"written", "filled", "make_result", "allocate_like"}) {
    const Return* r = return_of(name);
    ASSERT_TRUE(r) << name;
    EXPECT_TRUE(r->written) << name;
  }
  const Return* forwarded = return_of("forwarded");
  ASSERT_TRUE(forwarded);
  EXPECT_FALSE(empty_origin(*forwarded));
}

TEST(CudaLink, AllocationHelpersHandTheirBufferUpAChainInBothEngines) {
  testing::expect_from_both_engines(kAllocationChain, expect_allocation_chain);
}

// A buffer handed whole to a function of the file is written when that function (or one it hands the
// buffer on to) uses the parameter's data: a launch through a helper writes it, a shape check or a
// no-op does not, and a function the file only declares is trusted to.
const char* kHandedBuffers = R"(#include <torch/extension.h>
__global__ void fill(float* y, int64_t n) { if (threadIdx.x < n) y[threadIdx.x] = 1.f; }
static void launch_into(torch::Tensor& y) { fill<<<1, 256>>>(y.data_ptr<float>(), y.numel()); }
static void check(const torch::Tensor& y) { TORCH_CHECK(y.dim() == 1); }
static void touch(torch::Tensor& y) {}
static void prepare(torch::Tensor& y) { touch(y); }
void external_fill(torch::Tensor& y);
torch::Tensor launched(torch::Tensor x) { auto out = torch::empty_like(x); launch_into(out); return out; }
torch::Tensor viewed(torch::Tensor x) {
  auto out = torch::empty_like(x);
  auto flat = out.view({-1});
  launch_into(flat);
  return out;
}
torch::Tensor declared(torch::Tensor x) { auto out = torch::empty_like(x); external_fill(out); return out; }
torch::Tensor checked(torch::Tensor x) { auto out = torch::empty_like(x); check(out); return out; }
torch::Tensor chained(torch::Tensor x) { auto out = torch::empty_like(x); prepare(out); return out; }
)";

void expect_handed_buffers(const FactSet& f, const std::string& engine) {
  SCOPED_TRACE(engine);
  std::map<std::string, bool> written;
  for (const auto& r : f.returns) {
    if (r.function < 0) continue;
    written[f.functions[r.function].qualname] = r.written;
    EXPECT_TRUE(r.handed.empty()) << "link resolves every hand-over";
  }
  for (const char* name : {"launched", "viewed", "declared"}) {
    ASSERT_TRUE(written.count(name)) << name;
    EXPECT_TRUE(written[name]) << name;
  }
  for (const char* name : {"checked", "chained"}) {
    ASSERT_TRUE(written.count(name)) << name;
    EXPECT_FALSE(written[name]) << name;
  }
}

TEST(CudaLink, ABufferHandedToAFunctionOfTheFileIsWrittenOnlyWhenThatFunctionUsesIt) {
  testing::expect_from_both_engines(kHandedBuffers, expect_handed_buffers);
}

}  // namespace
}  // namespace kgate::cuda
