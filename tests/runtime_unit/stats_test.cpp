// Timing statistics: quantiles, IQR, CV, and refusal of impossible samples.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/stats.h"

namespace kgate::runtime {
namespace {

TEST(Stats, SummaryOfKnownSamples) {
  auto s = summarize({5.0, 1.0, 4.0, 2.0, 3.0});
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->count, 5u);
  EXPECT_DOUBLE_EQ(s->median, 3.0);
  EXPECT_DOUBLE_EQ(s->q1, 2.0);
  EXPECT_DOUBLE_EQ(s->q3, 4.0);
  EXPECT_DOUBLE_EQ(s->iqr, 2.0);
  EXPECT_DOUBLE_EQ(s->mean, 3.0);
  EXPECT_DOUBLE_EQ(s->stddev, std::sqrt(2.5));
  EXPECT_DOUBLE_EQ(s->cv, std::sqrt(2.5) / 3.0);
  EXPECT_DOUBLE_EQ(s->min, 1.0);
  EXPECT_DOUBLE_EQ(s->max, 5.0);
}

TEST(Stats, EvenCountInterpolates) {
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  auto s = summarize({1.0, 2.0, 3.0, 4.0});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->q1, 1.75);
  EXPECT_DOUBLE_EQ(s->q3, 3.25);
}

TEST(Stats, OneSampleHasNoSpread) {
  auto s = summarize({7.0});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->median, 7.0);
  EXPECT_DOUBLE_EQ(s->stddev, 0.0);
  EXPECT_DOUBLE_EQ(s->cv, 0.0);
}

TEST(Stats, MedianIgnoresOneWildOutlier) {
  auto s = summarize({1.0, 1.0, 1.0, 1.0, 1000.0});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->median, 1.0);
  EXPECT_DOUBLE_EQ(s->iqr, 0.0);
  EXPECT_GT(s->cv, 1.0);
}

TEST(Stats, ImpossibleSamplesAreErrors) {
  EXPECT_FALSE(summarize({}));
  auto nan = summarize({1.0, std::numeric_limits<double>::quiet_NaN()});
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().find("sample 1"), std::string::npos) << nan.error();
  EXPECT_FALSE(summarize({-1.0}));
  EXPECT_FALSE(summarize({std::numeric_limits<double>::infinity()}));
}

}  // namespace
}  // namespace kgate::runtime
