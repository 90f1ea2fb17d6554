// compare_outputs: metadata order, the elementwise and norm terms (M4), NaN handling, quantization.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/full.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/zeros.h>

#include "runtime/compare.h"

namespace kgate::runtime {
namespace {

CompareResult compare(const at::Tensor& e, const at::Tensor& a, Tolerance tol = {}) {
  return compare_outputs(e, a, tol, Contract::elementwise, QuantizationContract{});
}

TEST(CompareOutputs, EqualOutputsPass) {
  auto e = at::randn({32, 32});
  auto r = compare(e, e.clone());
  EXPECT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.reason_id, "");
  EXPECT_EQ(r.mismatches, 0);
}

TEST(CompareOutputs, MetadataIsCheckedInOrder) {
  auto e = at::ones({4, 4});
  EXPECT_EQ(compare(e, at::ones({16})).reason_id, "shape-mismatch");
  // Shape is reported before dtype.
  EXPECT_EQ(compare(e, at::ones({16}, at::TensorOptions().dtype(at::kHalf))).reason_id, "shape-mismatch");
  EXPECT_EQ(compare(e, at::ones({4, 4}, at::TensorOptions().dtype(at::kDouble))).reason_id, "dtype-mismatch");
  // A reference that returns a strided view does not oblige the candidate to return one.
  EXPECT_TRUE(compare(at::ones({4, 8}).narrow(1, 0, 4), at::ones({4, 4})).ok);
  auto strided = at::ones({4, 8}).narrow(1, 0, 4);
  EXPECT_EQ(compare(e, strided).reason_id, "not-contiguous");
  EXPECT_EQ(compare(e, at::Tensor()).reason_id, "shape-mismatch");
}

TEST(CompareOutputs, ElementwiseToleranceIsAtolPlusRtol) {
  auto e = at::full({100}, 10.0);
  Tolerance tol{1e-3, 1e-2, 1.0};
  EXPECT_TRUE(compare(e, e + 0.1, tol).ok);  // 0.1 <= 1e-3 + 1e-2 * 10
  auto r = compare(e, e + 0.102, tol);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.reason_id, "mismatch");
  EXPECT_EQ(r.mismatches, 100);
  EXPECT_NEAR(r.max_abs_err, 0.102, 1e-5);
  EXPECT_NEAR(r.max_rel_err, 0.0102, 1e-6);
  auto one_off = e.clone();
  one_off[37] = 11.0;
  auto single = compare(e, one_off, tol);
  EXPECT_EQ(single.mismatches, 1);
  EXPECT_NE(single.message.find("[37]"), std::string::npos) << single.message;
}

// Outputs larger than one comparison chunk (2^25 elements) are compared chunk by chunk: the first
// failing position, the counts, the maxima and the norm term are those of the whole output.
TEST(CompareOutputs, ChunkedComparisonMatchesTheWholeOutput) {
  const std::int64_t n = (std::int64_t{1} << 25) + 1000;
  auto e = at::full({2, n / 2}, 2.0);
  auto a = e + 1e-4;      // a small error everywhere, for the norm term over all chunks together
  a[1][n / 2 - 3] = 3.0;  // two elementwise failures, both in the second chunk
  a[1][n / 2 - 1] = 2.5;
  const Tolerance tol{1e-3, 1e-3, 1e-5};
  auto r = compare(e, a, tol);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_NEAR(r.max_abs_err, 1.0, 1e-12);
  EXPECT_NE(r.message.find("[1, " + std::to_string(n / 2 - 3) + "]"), std::string::npos) << r.message;
  const double small = (a[0][0] - e[0][0]).item<double>();
  const double err = std::sqrt(small * small * double(n - 2) + 1.0 + 0.25);
  const double bound =
      tol.norm_rtol * 2.0 * std::sqrt(double(n)) + tol.atol * (tol.norm_rtol / tol.rtol) * std::sqrt(double(n));
  EXPECT_NEAR(r.norm_err_ratio, err / bound, 1e-6 * err / bound);
}

TEST(CompareOutputs, ZerosForATinyOutputFailTheNormTerm) {
  // Every element is below atol (|e| < 9e-5), so the elementwise term alone accepts zeros (M4).
  auto e = (at::rand({4096}) * 2.0 - 1.0) * 9e-5;
  auto r = compare(e, at::zeros({4096}));
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.reason_id, "norm-mismatch");
  EXPECT_GT(r.norm_err_ratio, 1.0);
  // A right answer with honest rounding noise passes.
  auto noisy = e * (1.0 + at::randn({4096}) * 1e-7);
  EXPECT_TRUE(compare(e, noisy).ok) << compare(e, noisy).message;
}

TEST(CompareOutputs, NanIsNeverAWildcard) {
  auto e = at::ones({8});
  auto a = e.clone();
  a[3] = std::numeric_limits<float>::quiet_NaN();
  auto r = compare(e, a);
  EXPECT_EQ(r.reason_id, "nan-mismatch");
  EXPECT_EQ(r.mismatches, 1);
  // NaN where the reference has NaN is required and accepted.
  auto both = a.clone();
  EXPECT_TRUE(compare(a, both).ok);
  EXPECT_EQ(compare(a, e).reason_id, "nan-mismatch");
  // A NaN where the reference has a number names the unset output as one cause (LeetGPU's float
  // reductions atomicAdd into an output handed over NaN-filled); a number where the reference has NaN
  // does not.
  EXPECT_NE(r.message.find("never clears"), std::string::npos) << r.message;
  EXPECT_EQ(compare(a, e).message.find("never clears"), std::string::npos) << compare(a, e).message;
  // Loose tolerances do not make a NaN acceptable.
  EXPECT_EQ(compare(e, a, Tolerance{1e9, 1e9, 1e9}).reason_id, "nan-mismatch");
}

TEST(CompareOutputs, InfinitiesMustMatchExactly) {
  auto e = at::ones({4});
  e[0] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(compare(e, e.clone()).ok);
  auto wrong_sign = e.clone();
  wrong_sign[0] = -std::numeric_limits<float>::infinity();
  EXPECT_EQ(compare(e, wrong_sign).reason_id, "mismatch");
  auto finite = e.clone();
  finite[0] = 3.0e38f;
  EXPECT_EQ(compare(e, finite, Tolerance{1e9, 1e9, 1e9}).reason_id, "mismatch");
}

TEST(CompareOutputs, IntegerOutputsAreExactUnderZeroTolerance) {
  auto e = at::ones({16}, at::TensorOptions().dtype(at::kChar));
  EXPECT_TRUE(compare(e, e.clone(), Tolerance{0, 0, 0}).ok);
  auto a = e.clone();
  a[5] = 2;
  EXPECT_EQ(compare(e, a, Tolerance{0, 0, 0}).reason_id, "mismatch");
}

TEST(CompareOutputs, QuantizationContract) {
  auto e = at::randn({1024});
  QuantizationContract q;  // cosine >= 0.999, rel L1 <= 0.02, RMSE <= 0.05
  auto close = e + at::randn({1024}) * 0.005;
  auto r = compare_outputs(e, close, Tolerance{0, 0, 0}, Contract::quantization, q);
  EXPECT_TRUE(r.ok) << r.message;
  auto far = e + at::randn({1024}) * 0.2;
  auto bad = compare_outputs(e, far, Tolerance{}, Contract::quantization, q);
  EXPECT_EQ(bad.reason_id, "mismatch");
  EXPECT_NE(bad.message.find("cosine"), std::string::npos) << bad.message;
  EXPECT_NE(bad.message.find("RMSE"), std::string::npos) << bad.message;
  EXPECT_EQ(compare_outputs(e, at::zeros({1024}), Tolerance{}, Contract::quantization, q).reason_id, "mismatch");
}

// Huge-magnitude cases: a GEMM of inputs near 1e4 whose outputs cancel now and then. An honest fp32
// kernel summing in another order than the reference misses an absolute atol at some near-zero
// elements; with atol scaled to the output's RMS it passes, while a bf16 intermediate still fails.
TEST(CompareOutputs, HugeCasesScaleAtolToTheOutputRms) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(7);
  const auto x = at::randn({64, 1024}, gen, at::kFloat) * 1e4;
  const auto w = at::randn({1024, 128}, gen, at::kFloat) * (1.0 / 32);
  const auto expected = at::matmul(x.to(at::kDouble), w.to(at::kDouble)).to(at::kFloat);
  // Another summation order in fp32: two halves of K summed separately, then added.
  const auto honest =
      at::matmul(x.narrow(1, 0, 512), w.narrow(0, 0, 512)) + at::matmul(x.narrow(1, 512, 512), w.narrow(0, 512, 512));
  const auto bf16 = at::matmul(x.to(at::kBFloat16), w.to(at::kBFloat16)).to(at::kFloat);
  const Tolerance tol{1e-3, 1e-3, 1e-4};
  ASSERT_FALSE(compare(expected, honest, tol).ok) << "the case must exercise cancellation";
  const Tolerance scaled = scaled_to_output(tol, expected);
  EXPECT_GT(scaled.atol, 1.0);
  EXPECT_EQ(scaled.rtol, tol.rtol);
  EXPECT_EQ(scaled.norm_rtol, tol.norm_rtol);
  EXPECT_TRUE(compare(expected, honest, scaled).ok) << compare(expected, honest, scaled).message;
  EXPECT_FALSE(compare(expected, bf16, scaled).ok);
  // Outputs of unit size keep atol as it is; non-finite values do not count.
  auto small = at::full({8}, 0.5);
  small[0] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(scaled_to_output(tol, small).atol, tol.atol);
}

TEST(CompareOutputs, InfinityMatchesAReferenceAtTheLargestFiniteValue) {
  auto e = at::full({4}, 1.0, at::kHalf);
  e[1] = 65504.0;
  e[2] = -65504.0;
  auto a = e.clone();
  a[1] = std::numeric_limits<double>::infinity();
  a[2] = -std::numeric_limits<double>::infinity();
  EXPECT_TRUE(compare(e, a).ok) << compare(e, a).message;
  EXPECT_TRUE(compare(a, e).ok) << "an infinite reference and the largest finite value of the same sign";
  auto wrong_sign = e.clone();
  wrong_sign[1] = -std::numeric_limits<double>::infinity();
  EXPECT_FALSE(compare(e, wrong_sign).ok);
  auto not_saturated = e.clone();
  not_saturated[0] = std::numeric_limits<double>::infinity();  // 1.0 is far from the overflow boundary
  EXPECT_FALSE(compare(e, not_saturated).ok);
  // In fp32, 65504 is an ordinary value.
  auto f = e.to(at::kFloat);
  auto g = f.clone();
  g[1] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(compare(f, g).ok);
}

// A tuple output: each tensor against its own, the failing one named, the count checked first.
TEST(CompareAll, EachTensorOfATupleIsComparedAndTheFailingOneIsNamed) {
  const Outputs expected{at::randn({8, 4}), at::randn({8})};
  EXPECT_TRUE(compare_all(expected, {expected[0].clone(), expected[1].clone()}, {}, false, Contract::elementwise,
                          QuantizationContract{})
                  .ok);
  const auto second_wrong = compare_all(expected, {expected[0].clone(), at::zeros({8})}, {}, false,
                                        Contract::elementwise, QuantizationContract{});
  EXPECT_EQ(second_wrong.reason_id, "mismatch");
  EXPECT_EQ(second_wrong.message.rfind("output[1]: ", 0), 0u) << second_wrong.message;
  const auto one_only =
      compare_all(expected, {expected[0].clone()}, {}, false, Contract::elementwise, QuantizationContract{});
  EXPECT_EQ(one_only.reason_id, "shape-mismatch");
  // A single output keeps its message as compare_outputs writes it.
  const auto single =
      compare_all({expected[1]}, {at::zeros({8})}, {}, false, Contract::elementwise, QuantizationContract{});
  EXPECT_EQ(single.message.find("output"), std::string::npos) << single.message;
}

TEST(CompareAll, HugeCasesScaleEachTensorsToleranceByItsOwnOutput) {
  const Outputs expected{at::full({16}, 1e6), at::full({16}, 1.0)};
  const Tolerance tol{1e-3, 0.0, 1.0};
  // 1.0 off on the large tensor is within atol scaled by its RMS; on the small tensor it is not.
  EXPECT_TRUE(compare_all(expected, {expected[0] + 1.0, expected[1].clone()}, tol, true, Contract::elementwise,
                          QuantizationContract{})
                  .ok);
  EXPECT_FALSE(compare_all(expected, {expected[0].clone(), expected[1] + 1.0}, tol, true, Contract::elementwise,
                           QuantizationContract{})
                   .ok);
}

TEST(SameOutputs, SameCountShapeDtypeAndBits) {
  const auto a = at::randn({4});
  EXPECT_TRUE(same_outputs({a, a}, {a.clone(), a.clone()}));
  EXPECT_FALSE(same_outputs({a}, {a, a}));
  EXPECT_FALSE(same_outputs({a}, {a.to(at::kDouble)}));
  EXPECT_FALSE(same_outputs({a}, {a + 1.0}));
  EXPECT_FALSE(same_outputs({a}, {at::Tensor()}));
}

TEST(CompareOutputs, OutputsThatCopyInputsNeedNoKernel) {
  const at::Tensor x = at::arange(6, at::kFloat);
  const at::Tensor y = at::arange(6, at::kFloat) * 2;
  EXPECT_TRUE(outputs_copy_inputs({x.clone()}, {y, x}));
  EXPECT_TRUE(outputs_copy_inputs({x.clone(), y.clone()}, {y, x}));
  EXPECT_FALSE(outputs_copy_inputs({x + 1}, {y, x}));           // a computed value
  EXPECT_FALSE(outputs_copy_inputs({x.to(at::kDouble)}, {x}));  // same values, another dtype
  EXPECT_FALSE(outputs_copy_inputs({x.reshape({2, 3})}, {x}));  // same bits, another shape
  EXPECT_FALSE(outputs_copy_inputs({x.clone(), x + 1}, {x}));   // one of two outputs computed
  EXPECT_FALSE(outputs_copy_inputs({}, {x}));
  const at::Tensor nan = at::full({3}, std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(outputs_copy_inputs({nan.clone()}, {nan}));  // a NaN copied is a copy
}

}  // namespace
}  // namespace kgate::runtime
