// fill_inputs: determinism in the seed, independence per input, each distribution's shape, fill kinds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include <ATen/ops/empty.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randn.h>

#include "runtime/inputs.h"

namespace kgate::runtime {
namespace {

std::vector<at::Tensor> structure(at::ScalarType dtype = at::kFloat, std::int64_t n = 1 << 16) {
  return {at::empty({n}, at::TensorOptions().dtype(dtype)), at::empty({n}, at::TensorOptions().dtype(dtype))};
}

at::Tensor fill_one(Distribution dist, at::ScalarType dtype = at::kFloat, const InputOptions& options = {},
                    std::optional<Fill> fill = std::nullopt, std::uint64_t seed = 7) {
  std::vector<InputSpec> specs{{"x", fill}};
  return fill_inputs({at::empty({1 << 16}, at::TensorOptions().dtype(dtype))}, specs, dist, seed, options)[0];
}

TEST(FillInputs, SameSeedSameValuesOtherSeedOtherValues) {
  for (auto dist : all_distributions()) {
    auto a = fill_inputs(structure(), {}, dist, 42, {});
    auto b = fill_inputs(structure(), {}, dist, 42, {});
    auto c = fill_inputs(structure(), {}, dist, 43, {});
    EXPECT_TRUE(a[0].equal(b[0])) << distribution_name(dist);
    EXPECT_FALSE(a[0].equal(c[0])) << distribution_name(dist);
  }
}

TEST(FillInputs, InputsOfOneCallAreIndependent) {
  auto a = fill_inputs(structure(), {}, Distribution::normal, 1, {});
  EXPECT_FALSE(a[0].equal(a[1]));
  EXPECT_LT(std::abs((a[0] * a[1]).mean().item<double>()), 0.02);  // uncorrelated streams
}

TEST(FillInputs, NormalAndUniformHaveTheirMoments) {
  auto normal = fill_one(Distribution::normal);
  EXPECT_NEAR(normal.mean().item<double>(), 0.0, 0.02);
  EXPECT_NEAR(normal.std().item<double>(), 1.0, 0.02);
  auto uniform = fill_one(Distribution::uniform);
  EXPECT_GE(uniform.min().item<double>(), -1.0);
  EXPECT_LT(uniform.max().item<double>(), 1.0);
  EXPECT_NEAR(uniform.std().item<double>(), 1.0 / std::sqrt(3.0), 0.01);
}

TEST(FillInputs, OutliersAppearAtTheConfiguredRateAndScale) {
  InputOptions options;
  options.outlier_p = 0.01;
  options.outlier_scale = 1000.0;
  auto x = fill_one(Distribution::outlier, at::kFloat, options);
  const auto big = x.abs().gt(20.0).sum().item<std::int64_t>();  // a normal draw beyond 20 sigma never happens
  // Expected count: 65536 * 0.01 * P(|N(0,1)| * 1000 > 20) ~ 642; allow sampling noise.
  EXPECT_GT(big, 500);
  EXPECT_LT(big, 800);
  auto none = fill_one(Distribution::outlier, at::kFloat, InputOptions{0.0, 50.0, {}});
  EXPECT_EQ(none.abs().gt(20.0).sum().item<std::int64_t>(), 0);
}

TEST(FillInputs, SpecialValuesOnlyWhenDeclared) {
  auto plain = fill_one(Distribution::special);
  EXPECT_TRUE(plain.isfinite().all().item<bool>());
  EXPECT_GT(plain.eq(0.0).logical_and(plain.signbit()).sum().item<std::int64_t>(), 0);                // -0
  EXPECT_GT(plain.eq(0.0).logical_and(plain.signbit().logical_not()).sum().item<std::int64_t>(), 0);  // +0
  InputOptions declared;
  declared.special_values = {"inf", "nan"};
  auto all = fill_one(Distribution::special, at::kFloat, declared);
  EXPECT_GT(all.isnan().sum().item<std::int64_t>(), 0);
  EXPECT_GT(all.isposinf().sum().item<std::int64_t>(), 0);
  EXPECT_GT(all.isneginf().sum().item<std::int64_t>(), 0);
  InputOptions inf_only;
  inf_only.special_values = {"inf"};
  EXPECT_EQ(fill_one(Distribution::special, at::kFloat, inf_only).isnan().sum().item<std::int64_t>(), 0);
}

TEST(FillInputs, TinyAndHugeAreDtypeAwareAndFinite) {
  for (auto dtype : {at::kFloat, at::kHalf, at::kBFloat16}) {
    auto tiny = fill_one(Distribution::tiny, dtype).to(at::kFloat);
    auto huge = fill_one(Distribution::huge, dtype).to(at::kFloat);
    EXPECT_NEAR(tiny.abs().mean().item<double>() / tiny_magnitude(dtype), std::sqrt(2.0 / std::numbers::pi), 0.05);
    EXPECT_NEAR(huge.abs().mean().item<double>() / huge_magnitude(dtype), std::sqrt(2.0 / std::numbers::pi), 0.05);
    EXPECT_TRUE(huge.isfinite().all().item<bool>());
    // Products of two tiny values stay normal numbers in the dtype.
    EXPECT_GT(tiny_magnitude(dtype) * tiny_magnitude(dtype), std::numeric_limits<float>::min());
  }
  EXPECT_GT(tiny_magnitude(at::kHalf) * tiny_magnitude(at::kHalf), 6.1e-5);
  EXPECT_LT(huge_magnitude(at::kHalf) * huge_magnitude(at::kHalf) * 1000, 65504.0);
}

TEST(FillInputs, FillKindsShapeTheDraw) {
  auto positive = fill_one(Distribution::normal, at::kFloat, {}, Fill::positive);
  EXPECT_GT(positive.min().item<double>(), 0.0);
  std::vector<InputSpec> specs{{"p", Fill::probability}};
  auto probability = fill_inputs({at::empty({64, 100})}, specs, Distribution::outlier, 3, {})[0];
  EXPECT_TRUE(probability.ge(0.0).all().item<bool>());
  EXPECT_TRUE(probability.sum(-1).sub(1.0).abs().lt(1e-5).all().item<bool>());
  auto original = at::ones({8});
  std::vector<InputSpec> keep{{"k", Fill::keep}};
  EXPECT_TRUE(fill_inputs({original}, keep, Distribution::normal, 3, {})[0].equal(original));
}

TEST(FillInputs, NonFloatingTensorsAreKeptAndLayoutIsPreserved) {
  auto indices = at::ones({4}, at::TensorOptions().dtype(at::kLong));
  auto transposed = at::empty({16, 8}).t();
  auto out = fill_inputs({indices, transposed}, {}, Distribution::normal, 5, {});
  EXPECT_TRUE(out[0].equal(indices));
  EXPECT_EQ(out[1].strides(), transposed.strides());
  EXPECT_EQ(out[1].scalar_type(), at::kFloat);
  for (auto dtype : {at::kHalf, at::kBFloat16}) {
    EXPECT_EQ(fill_one(Distribution::normal, dtype).scalar_type(), dtype);
  }
}

TEST(FillInputs, DistributionNamesRoundTrip) {
  for (auto dist : all_distributions()) EXPECT_EQ(parse_distribution(distribution_name(dist)), dist);
  EXPECT_EQ(parse_distribution("task"), Distribution::task);
  EXPECT_FALSE(parse_distribution("gaussian").has_value());
}

// `task` keeps what get_inputs() drew, every input, floating ones too: the values of a task whose inputs
// have a domain (positive-definite matrices) come from the task itself. It is not a default distribution.
TEST(FillInputs, TaskDistributionKeepsTheTasksOwnValues) {
  const auto drawn = at::randn({8, 8});
  const auto out = fill_inputs({drawn}, {}, Distribution::task, 7, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].equal(drawn));
  EXPECT_FALSE(fill_inputs({drawn}, {}, Distribution::normal, 7, {})[0].equal(drawn));
  for (auto dist : all_distributions()) EXPECT_NE(dist, Distribution::task);
}

}  // namespace
}  // namespace kgate::runtime
