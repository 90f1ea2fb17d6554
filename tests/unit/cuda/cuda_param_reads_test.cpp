// Tensor parameters whose data a host function never reads ("param-unread:<i>"), held to one
// expectation in both engines: metadata uses (shape comparisons too), like-makers and inspecting macros are no reads;
// handing the tensor to a kernel, another function or an unknown macro is, in a lambda's body too.
// And the writes to a parameter's storage (writes_param), through pointer locals.
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

const char* kReadsFile = R"(#include <torch/extension.h>
#define CHECK_CUDA(t) TORCH_CHECK(t.is_cuda(), #t " must be a CUDA tensor")
#define CHECK_INPUT(t) CHECK_CUDA(t); TORCH_CHECK(t.is_contiguous(), #t " must be contiguous")
#define USE(t) consume(t)
__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
torch::Tensor consume(const torch::Tensor& t);
torch::Tensor metadata_only(torch::Tensor x, torch::Tensor y, int64_t n) {
  CHECK_INPUT(x);
  auto out = torch::empty({x.size(0), n}, x.options());
  auto like = torch::zeros_like(y);
  TORCH_CHECK(y.dim() == 2 && y.scalar_type() == torch::kFloat, "y");
  TORCH_CHECK(x.sizes() == y.sizes() && x.strides() != y.sizes(), "shapes");
  return out + like;
}
torch::Tensor launches(torch::Tensor x, torch::Tensor y) {
  k<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), static_cast<int>(x.numel()));
  return y;
}
torch::Tensor hands_on(torch::Tensor x, torch::Tensor y) { return consume(x) + USE(y); }
torch::Tensor captured(torch::Tensor x) {
  auto run = [&] { return x.numel(); };
  return torch::empty({run()});
}
torch::Tensor dispatched(torch::Tensor x, torch::Tensor y) {
  auto run = [&] { k<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), 32); };
  run();
  return y;
}
)";

void expect_reads(const FactSet& f, const std::string& engine) {
  SCOPED_TRACE(engine);
  const Function* metadata = testing::find_function(f, "metadata_only");
  const Function* launches = testing::find_function(f, "launches");
  const Function* hands_on = testing::find_function(f, "hands_on");
  const Function* captured = testing::find_function(f, "captured");
  const Function* dispatched = testing::find_function(f, "dispatched");
  ASSERT_TRUE(metadata && launches && hands_on && captured && dispatched);
  EXPECT_TRUE(testing::has(captured->decorators, "param-unread:0"));  // the lambda asks numel() only
  EXPECT_TRUE(testing::has(metadata->decorators, "param-unread:0"));
  EXPECT_TRUE(testing::has(metadata->decorators, "param-unread:1"));
  EXPECT_FALSE(testing::has(metadata->decorators, "param-unread:2"));  // a number, not a tensor
  for (const Function* fn : {launches, hands_on, dispatched})
    for (const auto& d : fn->decorators) EXPECT_NE(d.rfind("param-unread:", 0), 0u) << fn->qualname << ": " << d;
}

TEST(CudaParamReads, MetadataUsesAreNoReadsInBothEngines) {
  testing::expect_from_both_engines(kReadsFile, expect_reads);
}

// A parameter handed whole to functions of the file is read only if one of them reads it: by
// reference or copied by value, through a namespace, and around a cycle of helpers that never read.
// A local bound to it (through side-effect-free methods) stands for it; a value thrown away reads
// nothing.
const char* kHandoversFile = R"(#include <torch/extension.h>
__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
namespace detail {
torch::Tensor shaped(const torch::Tensor& t) { return torch::empty_like(t); }
torch::Tensor by_value(torch::Tensor t, int64_t rows) { return torch::zeros({t.size(0), rows}, t.options()); }
torch::Tensor launch(const torch::Tensor& t) {
  auto out = torch::empty_like(t);
  k<<<1, 32>>>(t.data_ptr<float>(), out.data_ptr<float>(), 32);
  return out;
}
}  // namespace detail
torch::Tensor pong(torch::Tensor x, int depth);
torch::Tensor ping(torch::Tensor x, int depth) { return depth > 0 ? pong(x, depth - 1) : detail::shaped(x); }
torch::Tensor pong(torch::Tensor x, int depth) { return ping(x, depth); }
torch::Tensor consume(const torch::Tensor& t);
torch::Tensor unread_chain(torch::Tensor x, torch::Tensor y) { return detail::shaped(x) + detail::by_value(y, 4); }
torch::Tensor read_chain(torch::Tensor x, torch::Tensor y) { return detail::shaped(x) + detail::launch(x) + consume(y); }
torch::Tensor aliased(torch::Tensor x, torch::Tensor y, torch::Tensor z) {
  auto xc = x.contiguous();
  x.sum();
  (void)x.mean();
  auto yc = y.contiguous().view(-1);
  const float* zp = z.data_ptr<float>();
  auto out = detail::shaped(xc);
  k<<<1, 32>>>(yc.data_ptr<float>(), out.data_ptr<float>(), 32);
  return out + detail::shaped(z);
}
torch::Tensor alias_launched(torch::Tensor x) {
  auto xc = x.contiguous();
  return detail::launch(xc);
}
)";

void expect_handovers(const FactSet& f, const std::string& engine) {
  SCOPED_TRACE(engine);
  const Function* unread = testing::find_function(f, "unread_chain");
  const Function* read = testing::find_function(f, "read_chain");
  const Function* ping = testing::find_function(f, "ping");
  const Function* pong = testing::find_function(f, "pong");
  // The tree-sitter engine names a function as its definition writes it (no namespace).
  const Function* launch = testing::find_function(f, engine == "clang" ? "detail::launch" : "launch");
  const Function* aliased = testing::find_function(f, "aliased");
  const Function* alias_launched = testing::find_function(f, "alias_launched");
  ASSERT_TRUE(unread && read && ping && pong && launch && aliased && alias_launched);
  // xc stands for x and only shapes the output; x.sum() and (void)x.mean() are thrown away. yc is
  // launched. zp is a pointer into z that nothing uses, and z itself only shapes.
  EXPECT_TRUE(testing::has(aliased->decorators, "param-unread:0"));
  EXPECT_FALSE(testing::has(aliased->decorators, "param-unread:1"));
  EXPECT_TRUE(testing::has(aliased->decorators, "param-unread:2"));
  EXPECT_TRUE(testing::has(unread->decorators, "param-unread:0"));
  EXPECT_TRUE(testing::has(unread->decorators, "param-unread:1"));  // copied into by_value's t
  EXPECT_TRUE(testing::has(ping->decorators, "param-unread:0"));
  EXPECT_TRUE(testing::has(pong->decorators, "param-unread:0"));
  // x reaches launch's kernel; y goes to a function the file only declares.
  for (const Function* fn : {read, launch, alias_launched})
    for (const auto& d : fn->decorators) EXPECT_NE(d.rfind("param-unread:", 0), 0u) << fn->qualname << ": " << d;
}

TEST(CudaParamReads, HandoversToFunctionsThatDoNotReadAreNoReadsInBothEngines) {
  testing::expect_from_both_engines(kHandoversFile, expect_handovers);
}

// A value of the tensor that only decides a branch: the condition of an if, a while or a ?:, or a
// TORCH_CHECK, reached through side-effect-free methods and operators, is no read; the branch's own
// uses decide. A use of the same tensor inside a branch still reads.
const char* kSteeringFile = R"(#include <torch/extension.h>
__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
bool consume_and_test(const torch::Tensor& t);
torch::Tensor steers_only(torch::Tensor x, torch::Tensor bias) {
  TORCH_CHECK(x.isfinite().all().item<bool>(), "x must be finite");
  if (x.abs().amax().item<float>() > 1e30f || !(x.sum().item<float>() == x.sum().item<float>())) {
    throw std::runtime_error("never taken");
  }
  const float scale = x.max().item<float>() > -1e30f ? 1.0f : 0.0f;
  auto out = torch::empty_like(bias);
  k<<<1, 32>>>(bias.data_ptr<float>(), out.data_ptr<float>(), static_cast<int>(scale * bias.numel()));
  return out;
}
torch::Tensor steers_and_reads(torch::Tensor x, torch::Tensor y) {
  auto out = torch::empty_like(y);
  if (x.sum().item<float>() > 0) {
    k<<<1, 32>>>(x.data_ptr<float>(), out.data_ptr<float>(), 32);
  }
  while (y.abs().sum().item<float>() > 1e30f) {
    return y;
  }
  return out;
}
torch::Tensor tests_a_computed_value(torch::Tensor x) {
  if ((x * 2).sum().item<float>() > 0) return torch::empty_like(x);
  if (consume_and_test(x)) return x;
  return x;
}
torch::Tensor handed_in_a_test(torch::Tensor x) {
  auto out = torch::zeros({4});
  if (consume_and_test(x)) out.fill_(1.0f);
  return out;
}
)";

void expect_steering(const FactSet& f, const std::string& engine) {
  SCOPED_TRACE(engine);
  const Function* steers = testing::find_function(f, "steers_only");
  const Function* reads = testing::find_function(f, "steers_and_reads");
  const Function* computed = testing::find_function(f, "tests_a_computed_value");
  const Function* handed = testing::find_function(f, "handed_in_a_test");
  ASSERT_TRUE(steers && reads && computed && handed);
  EXPECT_TRUE(testing::has(steers->decorators, "param-unread:0"));
  EXPECT_FALSE(testing::has(steers->decorators, "param-unread:1"));
  EXPECT_FALSE(testing::has(reads->decorators, "param-unread:0"));     // launched in the branch
  EXPECT_FALSE(testing::has(reads->decorators, "param-unread:1"));     // returned in the branch
  EXPECT_FALSE(testing::has(computed->decorators, "param-unread:0"));  // returned, and handed to a function
  EXPECT_FALSE(testing::has(handed->decorators, "param-unread:0"));    // a declared function's argument
}

TEST(CudaParamReads, AValueThatOnlyPicksABranchIsNoReadInBothEngines) {
  testing::expect_from_both_engines(kSteeringFile, expect_steering);
}

// The other side: a call that writes a parameter's storage (cudaMemset into its data_ptr), also
// through a pointer local bound to it or an offset into it; a local re-pointed at the output on
// every path no longer stands for the input, one re-pointed on some paths only still may.
const char* kStorageWritesFile = R"(#include <torch/extension.h>
void clears(torch::Tensor x, torch::Tensor out) {
  float* tail = x.data_ptr<float>() + 16;
  cudaMemsetAsync(tail, 0, 64);
  float* alias = tail;
  cudaMemset(alias, 0, 4);
  float* acc = out.data_ptr<float>();
  cudaMemsetAsync(acc, 0, 64);
  float* moved = x.data_ptr<float>();
  moved = out.data_ptr<float>();
  cudaMemset(moved, 0, 8);
  float* maybe = x.data_ptr<float>();
  if (out.numel() > 4) maybe = out.data_ptr<float>();
  cudaMemsetAsync(maybe, 0, 12);
}
)";

void expect_storage_writes(const FactSet& f, const std::string& engine) {
  SCOPED_TRACE(engine);
  const std::string src = kStorageWritesFile;
  const auto writes = [&](const std::string& resolved, const std::string& needle) {
    const Call* c = testing::find_call(f, resolved, testing::line_of(src, needle));
    EXPECT_TRUE(c) << needle;
    return c && c->writes_param ? c->param_index : -1;
  };
  EXPECT_EQ(writes("cudaMemsetAsync", "cudaMemsetAsync(tail"), 0);
  EXPECT_EQ(writes("cudaMemset", "cudaMemset(alias"), 0);
  EXPECT_EQ(writes("cudaMemsetAsync", "cudaMemsetAsync(acc"), 1);
  EXPECT_EQ(writes("cudaMemset", "cudaMemset(moved"), 1);
  EXPECT_EQ(writes("cudaMemsetAsync", "cudaMemsetAsync(maybe"), 0);
}

TEST(CudaParamWrites, StorageWritesFollowPointerLocalsInBothEngines) {
  testing::expect_from_both_engines(kStorageWritesFile, expect_storage_writes);
}

}  // namespace
}  // namespace kgate::cuda
