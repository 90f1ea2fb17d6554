// Tensor parameters whose data a host function never reads ("param-unread:<i>"), held to one
// expectation in both engines: metadata uses, like-makers and inspecting macros are no reads; handing
// the tensor to a kernel, another function or an unknown macro is, in a lambda's body too.
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

}  // namespace
}  // namespace kgate::cuda
