// Input contracts of tasks without a manifest: what get_inputs() draws show is inferred (each class of
// structured input KernelBench's problems use), and every distribution's fill keeps it.
#include <gtest/gtest.h>

#include <functional>

#include <ATen/ATen.h>

#include "runtime/input_contract.h"
#include "runtime/inputs.h"

namespace kgate::runtime {
namespace {

// kContractDraws draws of a one-input get_inputs(), each from its own generator seed.
std::vector<std::vector<at::Tensor>> draws_of(const std::function<at::Tensor()>& get_input) {
  std::vector<std::vector<at::Tensor>> draws;
  for (int i = 0; i < kContractDraws; ++i) {
    at::manual_seed(100 + i);
    draws.push_back({get_input()});
  }
  return draws;
}

InputSpec inferred(const std::function<at::Tensor()>& get_input) {
  return infer_input_specs(draws_of(get_input)).at(0);
}

TEST(InferInputSpecs, NormalValuesAreUnconstrained) {
  const auto spec = inferred([] { return at::randn({64, 64}); });
  EXPECT_FALSE(spec.fill.has_value());
  EXPECT_FALSE(spec.pattern.has_value());
  EXPECT_EQ(spec.name, "get_inputs()[0]");
}

TEST(InferInputSpecs, TriangularAndDiagonalZeroPatterns) {
  const auto lower = inferred([] { return at::tril(at::rand({48, 48})); });
  EXPECT_EQ(lower.pattern, Pattern::lower_triangular);
  EXPECT_EQ(lower.fill, Fill::unit_interval);
  EXPECT_EQ(inferred([] { return at::triu(at::randn({2, 32, 32})); }).pattern, Pattern::upper_triangular);
  EXPECT_EQ(inferred([] { return at::diag(at::randn({32})); }).pattern, Pattern::diagonal);
}

TEST(InferInputSpecs, SymmetricMatrices) {
  const auto spec = inferred([] {
    auto a = at::rand({40, 40});
    return (a + a.t()) / 2;
  });
  EXPECT_EQ(spec.pattern, Pattern::symmetric);
  EXPECT_EQ(spec.fill, Fill::unit_interval);
}

TEST(InferInputSpecs, SortedRows) {
  // The two inputs of a merge (LeetGPU's Parallel Merge sorts uniform draws), and a batch of rows.
  const auto merge = inferred([] { return std::get<0>(at::sort(at::rand({1000}) * 20 - 10)); });
  EXPECT_EQ(merge.pattern, Pattern::sorted);
  EXPECT_FALSE(merge.fill.has_value());
  EXPECT_EQ(inferred([] { return std::get<0>(at::sort(at::randn({4, 64}), -1)); }).pattern, Pattern::sorted);
  // Equal neighbours keep an order; a descending row does not have it, nor do random values.
  EXPECT_EQ(inferred([] { return at::repeat_interleave(std::get<0>(at::randn({16}).sort()), 4) * 0.5; }).pattern,
            Pattern::sorted);
  EXPECT_FALSE(inferred([] { return std::get<0>(at::sort(at::randn({64}), -1, true)); }).pattern.has_value());
  EXPECT_FALSE(inferred([] { return at::randn({3, 4096}); }).pattern.has_value());
  // Rows shorter than 8 entries come out sorted by chance too often to be read as a contract.
  EXPECT_FALSE(inferred([] { return std::get<0>(at::sort(at::randn({2048, 4}), -1)); }).pattern.has_value());
  // A triangular matrix of non-negative values has sorted-looking rows at places; its zeros win.
  EXPECT_EQ(inferred([] { return at::tril(at::rand({16, 16})); }).pattern, Pattern::lower_triangular);
}

TEST(InferInputSpecs, SignAndRange) {
  EXPECT_EQ(inferred([] { return at::rand({1000}); }).fill, Fill::unit_interval);
  EXPECT_EQ(inferred([] { return at::rand({1000}) * 5 + 0.5; }).fill, Fill::positive);
  EXPECT_EQ(inferred([] { return at::relu(at::randn({1000})) * 3; }).fill,
            Fill::nonnegative);  // zeros and values above 1
}

TEST(InferInputSpecs, ProbabilityRows) {
  const auto spec = inferred([] { return at::softmax(at::rand({16, 300}), -1); });
  EXPECT_EQ(spec.fill, Fill::probability);
  EXPECT_NE(spec.inferred.find("rows summing to 1"), std::string::npos);
  // bf16 rounding of the rows' entries still reads as probability rows.
  EXPECT_EQ(inferred([] { return at::softmax(at::randn({16, 300}), -1).to(at::kBFloat16); }).fill, Fill::probability);
}

TEST(InferInputSpecs, IntegralValuesAreKept) {
  const auto targets = inferred([] { return at::randint(0, 2, {256}).to(at::kFloat) * 2 - 1; });
  EXPECT_EQ(targets.fill, Fill::keep);
  EXPECT_NE(targets.inferred.find("integral values in [-1, 1]"), std::string::npos);
  EXPECT_EQ(inferred([] { return at::randint(0, 1000, {64}).to(at::kFloat); }).fill, Fill::keep);
  EXPECT_EQ(inferred([] { return at::zeros({8, 8}); }).fill, Fill::keep);
}

TEST(InferInputSpecs, APropertyOneDrawLacksIsNotPartOfTheContract) {
  int call = 0;
  const auto spec = inferred([&] { return ++call == 2 ? at::randn({32, 32}) : at::tril(at::rand({32, 32})); });
  EXPECT_FALSE(spec.pattern.has_value());
  EXPECT_FALSE(spec.fill.has_value());
}

TEST(InferInputSpecs, NonFloatingEntriesGetNoContract) {
  auto draws = draws_of([] { return at::randint(0, 10, {8}); });
  const auto spec = infer_input_specs(draws).at(0);
  EXPECT_FALSE(spec.fill.has_value());
  EXPECT_TRUE(spec.inferred.empty());
}

TEST(InferInputSpecs, RandomValuesKeepTheTasksMagnitude) {
  // randn: RMS 1, drawn as it is; a power of two near the RMS otherwise (uniform in [-0.1, 0.1]: 0.058).
  EXPECT_FALSE(inferred([] { return at::randn({64, 64}); }).scale.has_value());
  const auto small = inferred([] { return at::rand({64, 64}).mul_(0.2).sub_(0.1); });
  ASSERT_TRUE(small.scale.has_value());
  EXPECT_EQ(*small.scale, 0.0625);
  EXPECT_NE(small.inferred.find("drawn at scale 0.0625"), std::string::npos);
  // Larger values are drawn at 1: an absolute atol met at the task's magnitude is met there too.
  EXPECT_FALSE(inferred([] { return at::randn({64, 64}).mul_(10.0); }).scale.has_value());
  // Values in [0, 1) and probability rows: the range is the contract, not scaled.
  EXPECT_FALSE(inferred([] { return at::rand({64, 64}).mul_(0.01); }).scale.has_value());
  EXPECT_FALSE(inferred([] { return at::softmax(at::randn({8, 64}), -1); }).scale.has_value());
}

TEST(FillKeepsContract, RandomDrawsAreScaledButTinyAndHugeAreNot) {
  InputSpec spec{"a", std::nullopt};
  spec.scale = 0.0625;
  const std::vector<at::Tensor> structure{at::empty({256, 256})};
  const auto rms = [](const at::Tensor& t) { return t.square().mean().sqrt().item<double>(); };
  const auto plain = fill_inputs(structure, {InputSpec{"a", std::nullopt}}, Distribution::normal, 5, {});
  const auto scaled = fill_inputs(structure, {spec}, Distribution::normal, 5, {});
  EXPECT_TRUE(at::equal(scaled[0], plain[0] * 0.0625));  // the same draw, exactly scaled
  EXPECT_NEAR(rms(fill_inputs(structure, {spec}, Distribution::uniform, 5, {})[0]), 0.0625 / std::sqrt(3.0), 0.003);
  for (Distribution dist : {Distribution::tiny, Distribution::huge})
    EXPECT_TRUE(at::equal(fill_inputs(structure, {spec}, dist, 5, {})[0],
                          fill_inputs(structure, {InputSpec{"a", std::nullopt}}, dist, 5, {})[0]));
}

// Every distribution the judge draws keeps the contract it was given.
TEST(FillKeepsContract, EveryDistributionKeepsPatternAndRange) {
  const std::vector<InputSpec> specs{{"a", Fill::unit_interval, Pattern::lower_triangular, ""},
                                     {"b", std::nullopt, Pattern::symmetric, ""},
                                     {"c", Fill::nonnegative, Pattern::diagonal, ""}};
  const std::vector<at::Tensor> structure{at::empty({64, 64}), at::empty({3, 64, 64}), at::empty({32, 32})};
  for (Distribution dist : all_distributions()) {
    if (distribution_conflict(specs, dist)) continue;
    const auto filled = fill_inputs(structure, specs, dist, 11, {});
    SCOPED_TRACE(std::string(distribution_name(dist)));
    EXPECT_TRUE(at::triu(filled[0], 1).eq(0).all().item<bool>());
    EXPECT_TRUE(filled[0].ge(0).logical_and(filled[0].lt(1)).all().item<bool>());
    EXPECT_TRUE(at::equal(filled[1], filled[1].transpose(-1, -2)));
    EXPECT_TRUE(at::equal(filled[2], at::diag_embed(at::diagonal(filled[2], 0, -2, -1))));
    EXPECT_TRUE(filled[2].ge(0).all().item<bool>());
  }
}

TEST(FillKeepsContract, SortedInputsStaySortedUnderEveryDistribution) {
  const std::vector<InputSpec> specs{{"a", std::nullopt, Pattern::sorted, ""},
                                     {"b", Fill::unit_interval, Pattern::sorted, ""}};
  const std::vector<at::Tensor> structure{at::empty({5000}), at::empty({3, 300})};
  InputOptions options;
  options.special_values = {"inf", "nan"};
  for (Distribution dist : all_distributions()) {
    if (distribution_conflict(specs, dist)) continue;
    const auto filled = fill_inputs(structure, specs, dist, 13, options);
    SCOPED_TRACE(std::string(distribution_name(dist)));
    for (const auto& x : filled) {
      EXPECT_FALSE(x.isnan().any().item<bool>());  // NaN has no place in an order
      const auto n = x.size(-1);
      EXPECT_TRUE(x.narrow(-1, 1, n - 1).ge(x.narrow(-1, 0, n - 1)).all().item<bool>());
    }
    if (dist == Distribution::special) {  // the specials that do have an order stay
      EXPECT_TRUE(filled[0].isinf().any().item<bool>());
    } else {
      EXPECT_TRUE(filled[1].ge(0).logical_and(filled[1].lt(1)).all().item<bool>());
    }
  }
}

TEST(FillKeepsContract, HugeIsSkippedForUnitIntervalInputsOnly) {
  const std::vector<InputSpec> unit{{"a", Fill::unit_interval}};
  const auto why = distribution_conflict(unit, Distribution::huge);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("[0, 1)"), std::string::npos);
  for (Distribution dist : all_distributions()) {
    if (dist != Distribution::huge) {
      EXPECT_FALSE(distribution_conflict(unit, dist).has_value());
    }
  }
  const std::vector<InputSpec> free{{"a", std::nullopt}, {"b", Fill::probability}};
  EXPECT_FALSE(distribution_conflict(free, Distribution::huge).has_value());
}

TEST(FillKeepsContract, OutliersInTheUnitIntervalSitAtItsEnds) {
  const std::vector<InputSpec> unit{{"a", Fill::unit_interval}};
  InputOptions options;
  options.outlier_p = 0.01;
  const auto x = fill_inputs({at::empty({1 << 16})}, unit, Distribution::outlier, 5, options)[0];
  EXPECT_GT(x.eq(0).sum().item<std::int64_t>(), 100);
  EXPECT_GT(x.eq(std::nextafter(1.0f, 0.0f)).sum().item<std::int64_t>(), 100);
  EXPECT_TRUE(x.lt(1).all().item<bool>());
}

}  // namespace
}  // namespace kgate::runtime
