// Trace summaries: grouping by kernel, time share of the candidate's kernels, and F2 (no own kernel).
#include <gtest/gtest.h>

#include "runtime/trace.h"

namespace kgate::runtime {
namespace {

KernelRecord launch(std::string name, std::uint64_t start, std::uint64_t end) {
  KernelRecord k;
  k.name = std::move(name);
  k.start_ns = start;
  k.end_ns = end;
  return k;
}

TEST(TraceSummary, GroupsByKernelAndSortsByTime) {
  Trace trace;
  trace.kernels = {launch("_Z10my_gemm_v1PKfS0_Pfi", 0, 3000), launch("ampere_sgemm_128x64_tn", 4000, 5000),
                   launch("_Z10my_gemm_v1PKfS0_Pfi", 6000, 9000)};
  auto rows = summarize_kernels(trace, {"my_gemm_v1"});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "my_gemm_v1(float const*, float const*, float*, int)");
  EXPECT_EQ(rows[0].origin, KernelOrigin::candidate);
  EXPECT_EQ(rows[0].launches, 2u);
  EXPECT_DOUBLE_EQ(rows[0].seconds, 6e-6);
  EXPECT_EQ(rows[1].origin, KernelOrigin::cublas);
  EXPECT_NEAR(candidate_time_share(rows), 6.0 / 7.0, 1e-12);
  EXPECT_FALSE(check_own_kernel(rows).has_value());
}

TEST(TraceSummary, LibraryOnlyLaunchesAreNoOwnKernel) {
  Trace trace;
  trace.kernels = {launch("ampere_sgemm_128x64_tn", 0, 1000),
                   launch("void at::native::vectorized_elementwise_kernel<4, Op>(int, Op)", 1000, 1500)};
  // The candidate defines a kernel but never launches it (F2, a decoy).
  auto rows = summarize_kernels(trace, {"decoy_kernel"});
  auto reason = check_own_kernel(rows);
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->id, "no-own-kernel");
  EXPECT_NE(reason->message.find("cublas ampere_sgemm_128x64_tn"), std::string::npos) << reason->message;
  EXPECT_DOUBLE_EQ(candidate_time_share(rows), 0.0);
  EXPECT_FALSE(check_own_kernel({}).has_value());
}

TEST(TraceSummary, ConstantFillsCountOnNeitherSideOfTheOwnShare) {
  // An honest elementwise kernel whose output comes from torch::zeros_like: the fill takes a third of
  // the call (a leaderboard-accepted tanh did this) and is no work of the task's.
  Trace trace;
  trace.kernels = {launch("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                          "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
                          0, 1000),
                   launch("_Z11tanh_kernelPKfPfi", 1000, 3000)};
  auto rows = summarize_kernels(trace, {"tanh_kernel"});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(candidate_time_share(rows), 1.0);
  // ATen's compute still counts against it.
  trace.kernels.push_back(
      launch("void at::native::vectorized_elementwise_kernel<4, at::native::tanh_kernel_cuda>()", 3000, 5000));
  EXPECT_DOUBLE_EQ(candidate_time_share(summarize_kernels(trace, {"tanh_kernel"})), 0.5);
}

}  // namespace
}  // namespace kgate::runtime
