// Runtime defences: each check fires on the cheat it exists for and stays quiet on honest outputs.
#include <limits>
#include <gtest/gtest.h>

#include <ATen/TensorOperators.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randn.h>

#include "runtime/defences.h"

namespace kgate::runtime {
namespace {

OutputFacts plain_facts() { return {true, {}, false, true, true, {0x1000, 0x2000}}; }

TEST(OutputPlain, PlainTensorPasses) { EXPECT_FALSE(check_output_plain(plain_facts()).has_value()); }

TEST(OutputPlain, SubclassOverridesAndViewsFail) {
  auto subclass = plain_facts();
  subclass.exact_tensor_type = false;
  EXPECT_EQ(check_output_plain(subclass)->id, "output-not-plain");
  auto dispatch = plain_facts();
  dispatch.has_torch_function_override = true;
  EXPECT_EQ(check_output_plain(dispatch)->id, "output-not-plain");
  auto methods = plain_facts();
  methods.overridden_methods = {"__eq__", "allclose"};
  auto reason = check_output_plain(methods);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->message.find("__eq__, allclose"), std::string::npos) << reason->message;
  auto strided = plain_facts();
  strided.is_contiguous = false;
  EXPECT_EQ(check_output_plain(strided)->id, "not-contiguous");
  strided.is_dense = true;  // column-major, say: not the contiguous layout the reference returns
  EXPECT_EQ(check_output_plain(strided)->id, "not-contiguous");
  auto view = plain_facts();
  view.owns_storage_exactly = false;
  EXPECT_EQ(check_output_plain(view)->id, "output-not-plain");
}

// torch.linalg's factors come column-major: a reference that returns one admits any dense layout, and
// still no overlapping or gapped one.
TEST(OutputPlain, DenseLayoutOfANonContiguousReferencePasses) {
  auto column_major = plain_facts();
  column_major.is_contiguous = false;
  column_major.is_dense = true;
  EXPECT_FALSE(check_output_plain(column_major, false).has_value());
  auto gapped = column_major;
  gapped.is_dense = false;
  EXPECT_EQ(check_output_plain(gapped, false)->id, "not-contiguous");
  EXPECT_FALSE(check_output_plain(plain_facts(), false).has_value());  // contiguous is always plain
}

TEST(Aliasing, OverlapIsCaughtAdjacencyIsNot) {
  const StorageRange out{100, 200};
  EXPECT_FALSE(check_aliasing(out, {{0, 100}, {200, 300}}).has_value());
  auto reason = check_aliasing(out, {{0, 100}, {150, 160}});
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->id, "output-aliases-input");
  EXPECT_NE(reason->message.find("input 1"), std::string::npos);
  EXPECT_FALSE(check_aliasing({100, 100}, {{0, 300}}).has_value());  // empty output owns nothing
}

TEST(Aliasing, StorageRangeOfRealTensors) {
  auto x = at::randn({8, 8});
  auto row = x[2];
  auto range = storage_range_of(row);
  EXPECT_TRUE(check_aliasing(range, {storage_range_of(x)}).has_value());
  EXPECT_FALSE(check_aliasing(storage_range_of(x.clone()), {storage_range_of(x)}).has_value());
  EXPECT_EQ(storage_range_of(x.t()).end - storage_range_of(x.t()).begin, 64u * sizeof(float));
}

TEST(InputsUnchanged, BitwiseAndNanAware) {
  auto x = at::randn({64});
  x[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(check_inputs_unchanged({x.clone()}, {x.clone()}).has_value());  // same NaN is unchanged
  auto zeroed = x.clone();
  zeroed.zero_();
  EXPECT_EQ(check_inputs_unchanged({x.clone()}, {zeroed})->id, "input-mutated");
  auto signed_zero = at::full({4}, 0.0);
  EXPECT_TRUE(check_inputs_unchanged({signed_zero}, {signed_zero.neg()}).has_value());  // +0 -> -0
  auto one_bit = x.clone();
  one_bit[10] = std::nextafter(one_bit[10].item<float>(), 1e30f);
  auto reason = check_inputs_unchanged({x.clone()}, {one_bit});
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->message.find("1 of 64"), std::string::npos) << reason->message;
  EXPECT_TRUE(check_inputs_unchanged({x}, {x.reshape({8, 8})}).has_value());
  EXPECT_TRUE(check_inputs_unchanged({x}, {}).has_value());
}

TEST(Deterministic, BitwiseAndWithinTolerance) {
  auto x = at::randn({128});
  EXPECT_FALSE(check_deterministic(x, x.clone()).has_value());
  auto y = x.clone();
  y[0] = y[0].item<float>() * (1.0f + 1e-6f) + 1e-7f;
  EXPECT_EQ(check_deterministic(x, y)->id, "nondeterministic");
  EXPECT_FALSE(check_deterministic(x, y, Tolerance{}).has_value());
  EXPECT_EQ(check_deterministic(x, x + 1.0, Tolerance{})->id, "nondeterministic");
}

TEST(Poison, FreeCpuMemoryIsSeenByTheNextEmpty) {
  constexpr std::int64_t n = 1 << 18;  // 1 MiB of fp32: above glibc's initial mmap threshold
  poison_free_memory(c10::Device(c10::kCPU), n * sizeof(float));
  auto unwritten = at::empty({n});
  auto reason = check_poison_read(unwritten);
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->id, "poison-read");
}

TEST(Poison, PatternIsRecognisedInEveryFloatingDtypeAndOnlyThere) {
  for (auto dtype : {at::kFloat, at::kHalf, at::kBFloat16, at::kDouble}) {
    auto t = at::ones({16}, at::TensorOptions().dtype(dtype));
    EXPECT_FALSE(check_poison_read(t).has_value());
    // Arithmetic NaNs are not the poison.
    auto nan = (t * std::numeric_limits<double>::infinity()) * 0.0;
    EXPECT_TRUE(nan.isnan().all().item<bool>());
    EXPECT_FALSE(check_poison_read(nan).has_value()) << c10::toString(dtype);
    auto words = at::empty({16 * t.element_size()}, at::TensorOptions().dtype(at::kByte));
    for (std::int64_t i = 0; i < words.numel(); i += 2) {
      words[i] = 0xF1;
      words[i + 1] = 0x7F;
    }
    auto poisoned = words.view(dtype);
    EXPECT_TRUE(poisoned.isnan().all().item<bool>()) << c10::toString(dtype);
    auto reason = check_poison_read(poisoned);
    ASSERT_TRUE(reason.has_value()) << c10::toString(dtype);
    EXPECT_NE(reason->message.find("16 of 16"), std::string::npos) << reason->message;
  }
  EXPECT_FALSE(check_poison_read(at::ones({4}, at::TensorOptions().dtype(at::kInt))).has_value());
}

// LeetGPU's count tasks hand solve an int32 output made with torch.empty(1); a kernel that atomicAdds
// into it without clearing it first returns poison + count.
TEST(Poison, AnIntegerOutputAddedOntoThePoisonIsUncleared) {
  for (auto dtype : {at::kShort, at::kInt, at::kLong}) {
    const auto expected = at::arange(5, at::TensorOptions().dtype(dtype)) * 1000;
    auto poison = at::empty({5 * expected.element_size()}, at::TensorOptions().dtype(at::kByte));
    for (std::int64_t i = 0; i < poison.numel(); i += 2) {
      poison[i] = 0xF1;
      poison[i + 1] = 0x7F;
    }
    const auto uncleared = poison.view(dtype) + expected;  // wraps, as the kernel's addition did
    auto reason = check_added_onto_poison(expected, uncleared);
    ASSERT_TRUE(reason.has_value()) << c10::toString(dtype);
    EXPECT_EQ(reason->id, "uncleared-output");
    EXPECT_NE(reason->message.find("5 of 5"), std::string::npos) << reason->message;
    // A plain wrong answer, a right one, and an element off by another amount are not this.
    EXPECT_FALSE(check_added_onto_poison(expected, expected + 1).has_value());
    EXPECT_FALSE(check_added_onto_poison(expected, expected).has_value());
    auto mixed = uncleared.clone();
    mixed[0] = 7;
    EXPECT_FALSE(check_added_onto_poison(expected, mixed).has_value()) << c10::toString(dtype);
  }
  // The output-argument adapters (LeetGPU's solve, kernel(output, ...)) fill an unset integer output with
  // the type's minimum; seen on the H100: a count of 62503348 came back as -2084980300.
  for (auto dtype : {at::kShort, at::kInt, at::kLong}) {
    const auto options = at::TensorOptions().dtype(dtype);
    const auto expected = at::tensor({0, 12345, 2}, at::TensorOptions().dtype(at::kLong)).to(dtype);
    const std::int64_t minimum = dtype == at::kShort ? std::numeric_limits<std::int16_t>::min()
                                 : dtype == at::kInt ? std::numeric_limits<std::int32_t>::min()
                                                     : std::numeric_limits<std::int64_t>::min();
    const auto unset = at::ones({3}, options).mul(minimum);
    auto reason = check_added_onto_poison(expected, unset + expected);
    ASSERT_TRUE(reason.has_value()) << c10::toString(dtype);
    EXPECT_NE(reason->message.find("minimum"), std::string::npos) << reason->message;
    EXPECT_FALSE(check_added_onto_poison(expected, unset + expected + 1).has_value()) << c10::toString(dtype);
  }
  const auto f = at::ones({4});
  EXPECT_FALSE(check_added_onto_poison(f, f * 2).has_value());  // floating: poison-read's business
}

}  // namespace
}  // namespace kgate::runtime
