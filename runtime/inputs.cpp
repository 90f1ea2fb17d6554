// Input generation: draws each floating input on a CPU generator seeded per (run seed, input index), shapes
// the draw per the input's fill kind, then copies it into a tensor laid out like get_inputs()' original.
#include "runtime/inputs.h"

#include <array>
#include <cmath>
#include <limits>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/abs.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/full.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/randperm.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/where.h>

namespace kgate::runtime {
namespace {

constexpr std::array<Distribution, 6> kDistributions{Distribution::normal,  Distribution::uniform,
                                                     Distribution::outlier, Distribution::special,
                                                     Distribution::tiny,    Distribution::huge};

// The special distribution replaces this share of elements (beyond one forced occurrence of each value).
constexpr double kSpecialDensity = 1.0 / 16.0;
// `positive` adds this fraction of the distribution's scale, so log, sqrt and division stay finite.
constexpr double kPositiveFloor = 1e-2;

// splitmix64: independent, well-mixed streams per input from one run seed.
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double distribution_scale(Distribution dist, at::ScalarType dtype) {
  switch (dist) {
    case Distribution::tiny: return tiny_magnitude(dtype);
    case Distribution::huge: return huge_magnitude(dtype);
    default: return 1.0;
  }
}

std::vector<double> special_pool(const InputOptions& options) {
  std::vector<double> pool{0.0, -0.0};
  for (const auto& name : options.special_values) {
    if (name == "inf") {
      pool.push_back(std::numeric_limits<double>::infinity());
      pool.push_back(-std::numeric_limits<double>::infinity());
    } else if (name == "nan") {
      pool.push_back(std::numeric_limits<double>::quiet_NaN());
    }
  }
  return pool;
}

// Plants special values: each one at least once (at random positions), then any of them at kSpecialDensity.
at::Tensor plant_specials(at::Tensor draw, const std::vector<double>& pool, at::Generator& gen) {
  const auto numel = draw.numel();
  if (numel == 0) return draw;
  auto flat = draw.reshape({-1});
  const auto cpu64 = at::TensorOptions().dtype(at::kLong);
  const auto cpu32 = at::TensorOptions().dtype(at::kFloat);
  auto mask = at::rand({numel}, gen, cpu32).lt(kSpecialDensity);
  auto choice = at::randint(static_cast<std::int64_t>(pool.size()), {numel}, gen, cpu64);
  auto perm = at::randperm(numel, gen, cpu64);
  auto* flat_data = flat.data_ptr<float>();
  const auto* mask_data = mask.data_ptr<bool>();
  const auto* choice_data = choice.data_ptr<std::int64_t>();
  const auto* perm_data = perm.data_ptr<std::int64_t>();
  for (std::int64_t i = 0; i < numel; ++i) {
    if (mask_data[i]) flat_data[i] = static_cast<float>(pool[static_cast<std::size_t>(choice_data[i])]);
  }
  for (std::size_t j = 0; j < pool.size() && static_cast<std::int64_t>(j) < numel; ++j) {
    flat_data[perm_data[j]] = static_cast<float>(pool[j]);
  }
  return flat.reshape(draw.sizes());
}

// One fp32 CPU draw of `sizes` from the distribution (before the fill kind shapes it).
at::Tensor draw_values(at::IntArrayRef sizes, Distribution dist, at::ScalarType dtype, at::Generator& gen,
                       const InputOptions& options) {
  const auto cpu32 = at::TensorOptions().dtype(at::kFloat);
  switch (dist) {
    case Distribution::uniform: return at::rand(sizes, gen, cpu32).mul_(2.0).sub_(1.0);
    case Distribution::outlier: {
      auto base = at::randn(sizes, gen, cpu32);
      auto hit = at::rand(sizes, gen, cpu32).lt(options.outlier_p);
      auto outliers = at::randn(sizes, gen, cpu32).mul_(options.outlier_scale);
      return at::where(hit, outliers, base);
    }
    case Distribution::special: return plant_specials(at::randn(sizes, gen, cpu32), special_pool(options), gen);
    case Distribution::tiny:
    case Distribution::huge: return at::randn(sizes, gen, cpu32).mul_(distribution_scale(dist, dtype));
    case Distribution::normal: break;
  }
  return at::randn(sizes, gen, cpu32);
}

at::Tensor shape_by_fill(at::Tensor draw, Fill fill, double scale) {
  switch (fill) {
    case Fill::positive: return at::abs(draw).add_(kPositiveFloor * scale);
    case Fill::probability:
      if (draw.dim() == 0) return at::full({}, 1.0, draw.options());
      return at::softmax(draw.to(at::kDouble), -1).to(at::kFloat);
    case Fill::random:
    case Fill::keep: break;
  }
  return draw;
}

}  // namespace

std::string_view distribution_name(Distribution dist) {
  switch (dist) {
    case Distribution::normal: return "normal";
    case Distribution::uniform: return "uniform";
    case Distribution::outlier: return "outlier";
    case Distribution::special: return "special";
    case Distribution::tiny: return "tiny";
    case Distribution::huge: return "huge";
  }
  return "normal";
}

std::optional<Distribution> parse_distribution(std::string_view name) {
  for (auto dist : kDistributions) {
    if (distribution_name(dist) == name) return dist;
  }
  return std::nullopt;
}

const std::vector<Distribution>& all_distributions() {
  static const std::vector<Distribution> all(kDistributions.begin(), kDistributions.end());
  return all;
}

// Tiny: products of two tiny values must stay normal numbers in the dtype, so an honest kernel is not
// judged on underflow; the square root of the smallest normal bounds that (fp16: 6.1e-5 -> 7.8e-3).
// fp32 and bf16 share the fp32 exponent range, and 1e-6 keeps squares (1e-12) far from it while sitting
// well below the default atol, which is where "return zeros" (M4) hides.
double tiny_magnitude(at::ScalarType dtype) {
  if (dtype == at::kHalf) return 1e-2;
  return 1e-6;
}

// Huge: large enough to expose reduced-precision intermediates (an fp16 accumulator in an fp32 task
// overflows at 65504), small enough that the task's own computation does not overflow in its dtype.
// fp16 has no room: 8 keeps a product of two inputs near 64 and a sum of 1000 such products finite;
// the judge still skips a (dtype, huge) case where the reference's own output is not finite.
double huge_magnitude(at::ScalarType dtype) {
  if (dtype == at::kHalf) return 8.0;
  return 1e4;
}

std::vector<at::Tensor> fill_inputs(const std::vector<at::Tensor>& structure, const std::vector<InputSpec>& specs,
                                    Distribution dist, std::uint64_t seed, const InputOptions& options) {
  std::vector<at::Tensor> filled;
  filled.reserve(structure.size());
  for (std::size_t i = 0; i < structure.size(); ++i) {
    const auto& original = structure[i];
    if (!original.defined() || !at::isFloatingType(original.scalar_type())) {
      filled.push_back(original);
      continue;
    }
    Fill fill = Fill::random;
    if (i < specs.size() && specs[i].fill.has_value()) fill = *specs[i].fill;
    if (fill == Fill::keep) {
      filled.push_back(original);
      continue;
    }
    auto gen = at::make_generator<at::CPUGeneratorImpl>(mix_seed(seed, i));
    const auto dtype = original.scalar_type();
    auto draw = draw_values(original.sizes(), dist, dtype, gen, options);
    draw = shape_by_fill(std::move(draw), fill, distribution_scale(dist, dtype));
    auto out = at::empty_like(original);  // keeps get_inputs()' layout (strides) and device
    out.copy_(draw);
    filled.push_back(std::move(out));
  }
  return filled;
}

}  // namespace kgate::runtime
