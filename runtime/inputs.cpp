// Input generation: draws each floating input on its own device with a generator seeded per (run seed,
// input index), shapes the draw per the input's contract, then copies it into a tensor laid out like
// get_inputs()' original.
#include "runtime/inputs.h"

#include <array>
#include <cmath>
#include <limits>

#include <mutex>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/ops/abs.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/nan_to_num.h>
#include <ATen/ops/nonzero.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/full.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/randperm.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/sort.h>
#include <ATen/ops/tril.h>
#include <ATen/ops/triu.h>
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
    case Distribution::tiny:
      return tiny_magnitude(dtype);
    case Distribution::huge:
      return huge_magnitude(dtype);
    default:
      return 1.0;
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

// Plants special values: each one at least once (at a random position in its own equal segment of the
// tensor, so the positions differ), then any of them at kSpecialDensity. Tensor ops only, on the draw's
// device: a multi-GiB input is planted on the GPU without a host loop.
at::Tensor plant_specials(at::Tensor draw, const std::vector<double>& pool, at::Generator& gen) {
  const auto numel = draw.numel();
  if (numel == 0) return draw;
  auto flat = draw.reshape({-1});
  std::vector<float> values(pool.begin(), pool.end());
  const auto pool_t = at::tensor(values, at::TensorOptions().dtype(at::kFloat)).to(draw.device());
  const auto count = static_cast<std::int64_t>(pool.size());
  const auto longs = draw.options().dtype(at::kLong);
  const auto positions = at::nonzero(at::rand({numel}, gen, draw.options()).lt(kSpecialDensity)).squeeze(1);
  flat.index_put_({positions}, pool_t.index_select(0, at::randint(count, {positions.numel()}, gen, longs)));
  const std::int64_t forced = std::min(count, numel);
  const std::int64_t segment = numel / forced;
  const auto at_least_once = at::randint(segment, {forced}, gen, longs).add_(at::arange(forced, longs).mul_(segment));
  flat.index_put_({at_least_once}, pool_t.slice(0, 0, forced));
  return flat.reshape(draw.sizes());
}

// The generator of an input's draws: a fresh CPU generator, or the device's own generator reseeded
// (draws on a GPU stay on it; the judge is single-threaded, and reseeds before every input).
at::Generator generator_for(const at::Tensor& like, std::uint64_t seed) {
  if (like.device().is_cpu()) return at::make_generator<at::CPUGeneratorImpl>(seed);
  at::Generator gen = at::globalContext().defaultGenerator(like.device());
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_current_seed(seed);
  return gen;
}

// One fp32 draw of `sizes` on `device` from the distribution (before the fill kind shapes it).
at::Tensor draw_values(at::IntArrayRef sizes, Distribution dist, at::ScalarType dtype, at::Generator& gen,
                       const InputOptions& options, at::Device device) {
  const auto f32 = at::TensorOptions().dtype(at::kFloat).device(device);
  switch (dist) {
    case Distribution::uniform:
      return at::rand(sizes, gen, f32).mul_(2.0).sub_(1.0);
    case Distribution::outlier: {
      auto base = at::randn(sizes, gen, f32);
      auto hit = at::rand(sizes, gen, f32).lt(options.outlier_p);
      auto outliers = at::randn(sizes, gen, f32).mul_(options.outlier_scale);
      return at::where(hit, outliers, base);
    }
    case Distribution::special:
      return plant_specials(at::randn(sizes, gen, f32), special_pool(options), gen);
    case Distribution::tiny:
    case Distribution::huge:
      return at::randn(sizes, gen, f32).mul_(distribution_scale(dist, dtype));
    case Distribution::normal:
    case Distribution::task:
      break;
  }
  return at::randn(sizes, gen, f32);
}

// A draw inside [0, 1), the range of torch.rand: uniform values for the normal and uniform
// distributions; for outlier, uniform values with a share of them at the ends of the range (0 and the
// largest fp32 below 1); tiny: the distribution's tiny magnitudes, made non-negative; special: uniform
// values with the special pool planted (±0 always; inf and nan only where the task declares them).
// huge is out of the range: distribution_conflict() skips it.
at::Tensor draw_unit_interval(at::IntArrayRef sizes, Distribution dist, at::ScalarType dtype, at::Generator& gen,
                              const InputOptions& options, at::Device device) {
  const auto f32 = at::TensorOptions().dtype(at::kFloat).device(device);
  switch (dist) {
    case Distribution::outlier: {
      auto base = at::rand(sizes, gen, f32);
      auto hit = at::rand(sizes, gen, f32).lt(options.outlier_p);
      auto top = at::rand(sizes, gen, f32).lt(0.5);
      auto ends = at::where(top, at::full({}, std::nextafter(1.0f, 0.0f), f32), at::full({}, 0.0f, f32));
      return at::where(hit, ends, base);
    }
    case Distribution::tiny:
      return at::abs(at::randn(sizes, gen, f32)).mul_(tiny_magnitude(dtype));
    case Distribution::special:
      return plant_specials(at::rand(sizes, gen, f32), special_pool(options), gen);
    case Distribution::normal:
    case Distribution::uniform:
    case Distribution::huge:
    case Distribution::task:
      break;
  }
  return at::rand(sizes, gen, f32);
}

// Keeps the pattern: over the last two dimensions the zeros of a triangle or of the off-diagonal, or
// the lower triangle mirrored (a symmetric draw of the same distribution); over the last dimension
// the order (the draw sorted, with a NaN made +inf: a special value with no place in an order has no
// place in a sorted input, while infinities and signed zeros keep theirs).
at::Tensor apply_pattern(at::Tensor draw, Pattern pattern) {
  if (pattern == Pattern::sorted) {
    if (draw.dim() < 1) return draw;
    const double inf = std::numeric_limits<double>::infinity();
    return std::get<0>(at::sort(at::nan_to_num(draw, inf, inf, -inf), -1));
  }
  if (draw.dim() < 2) return draw;
  switch (pattern) {
    case Pattern::lower_triangular:
      return at::tril(draw);
    case Pattern::upper_triangular:
      return at::triu(draw);
    case Pattern::diagonal:
      return at::triu(at::tril(draw));
    case Pattern::symmetric:
      if (draw.size(-1) != draw.size(-2)) return draw;
      return at::tril(draw).add(at::tril(draw, -1).transpose(-1, -2));
    case Pattern::sorted:
      break;
  }
  return draw;
}

at::Tensor shape_by_fill(at::Tensor draw, Fill fill, double scale) {
  switch (fill) {
    case Fill::positive:
      return at::abs(draw).add_(kPositiveFloor * scale);
    case Fill::nonnegative:
      return at::abs(draw);
    case Fill::probability:
      if (draw.dim() == 0) return at::full({}, 1.0, draw.options());
      return at::softmax(draw.to(at::kDouble), -1).to(at::kFloat);
    case Fill::random:
    case Fill::unit_interval:  // drawn in range by draw_unit_interval
    case Fill::keep:
      break;
  }
  return draw;
}

}  // namespace

std::string_view distribution_name(Distribution dist) {
  switch (dist) {
    case Distribution::normal:
      return "normal";
    case Distribution::uniform:
      return "uniform";
    case Distribution::outlier:
      return "outlier";
    case Distribution::special:
      return "special";
    case Distribution::tiny:
      return "tiny";
    case Distribution::huge:
      return "huge";
    case Distribution::task:
      return "task";
  }
  return "normal";
}

std::optional<Distribution> parse_distribution(std::string_view name) {
  for (auto dist : kDistributions) {
    if (distribution_name(dist) == name) return dist;
  }
  if (name == distribution_name(Distribution::task)) return Distribution::task;
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
// fp16 has no room: 8 keeps a product of two inputs near 64 and a sum of 1000 such products finite.
double huge_magnitude(at::ScalarType dtype) {
  if (dtype == at::kHalf) return 8.0;
  return 1e4;
}

std::vector<at::Tensor> fill_inputs(const std::vector<at::Tensor>& structure, const std::vector<InputSpec>& specs,
                                    Distribution dist, std::uint64_t seed, const InputOptions& options) {
  if (dist == Distribution::task) return structure;  // the task's own values
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
    auto gen = generator_for(original, mix_seed(seed, i));
    const auto dtype = original.scalar_type();
    auto draw = fill == Fill::unit_interval
                    ? draw_unit_interval(original.sizes(), dist, dtype, gen, options, original.device())
                    : draw_values(original.sizes(), dist, dtype, gen, options, original.device());
    // The task's own magnitude (inferred) for the distributions drawn around it; tiny and huge are
    // magnitudes of the dtype, not of the task.
    if (i < specs.size() && specs[i].scale && dist != Distribution::tiny && dist != Distribution::huge &&
        (fill == Fill::random || fill == Fill::positive || fill == Fill::nonnegative))
      draw.mul_(*specs[i].scale);
    draw = shape_by_fill(std::move(draw), fill, distribution_scale(dist, dtype));
    if (i < specs.size() && specs[i].pattern) draw = apply_pattern(std::move(draw), *specs[i].pattern);
    auto out = at::empty_like(original);  // keeps get_inputs()' layout (strides) and device
    out.copy_(draw);
    filled.push_back(std::move(out));
  }
  return filled;
}

std::optional<std::string> distribution_conflict(const std::vector<InputSpec>& specs, Distribution dist) {
  if (dist != Distribution::huge) return std::nullopt;
  for (const auto& spec : specs)
    if (spec.fill == Fill::unit_interval)
      return "input " + spec.name + " takes values in [0, 1) only, where huge magnitudes do not exist";
  return std::nullopt;
}

}  // namespace kgate::runtime
