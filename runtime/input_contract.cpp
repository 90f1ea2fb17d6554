// Reads input contracts off get_inputs() draws (see input_contract.h). Value facts are reduced chunk by
// chunk over the flattened tensor, so a multi-GiB input costs no full-size temporary.
#include "runtime/input_contract.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

#include <ATen/ops/abs.h>
#include <ATen/ops/all.h>
#include <ATen/ops/amax.h>
#include <ATen/ops/amin.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/isfinite.h>
#include <ATen/ops/round.h>
#include <ATen/ops/square.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/tril.h>
#include <ATen/ops/triu.h>

namespace kgate::runtime {
namespace {

constexpr std::int64_t kChunk = std::int64_t{1} << 24;
// Zero patterns, symmetry and order are checked on inputs up to this many elements (a 16k x 16k matrix).
constexpr std::int64_t kPatternLimit = std::int64_t{1} << 28;
// An order is read off rows of at least this many entries: random values come out sorted by chance
// with probability 1/n! per row (1/40320 here), so a short row says nothing.
constexpr std::int64_t kSortedMinLength = 8;

// What one draw of one input showed; facts of several draws combine with `and`.
struct Seen {
  bool finite = true;
  bool integral = true;
  bool probability = false;
  bool lower = false;
  bool upper = false;
  bool symmetric = false;
  bool sorted = false;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double sum_squares = 0.0;
  std::int64_t count = 0;
};

bool all_true(const at::Tensor& t) { return at::all(t).item<bool>(); }

// Rows over the last dimension that are non-negative and sum to 1 within the dtype's rounding.
bool probability_rows(const at::Tensor& t, double min) {
  if (t.dim() == 0 || t.size(-1) < 2 || min < 0) return false;
  const double slack = t.scalar_type() == at::kFloat || t.scalar_type() == at::kDouble ? 1e-3 : 3e-2;
  return all_true(at::abs(at::sum(t, -1, false, at::kDouble).sub_(1.0)).le(slack));
}

Seen look(const at::Tensor& tensor) {
  Seen seen;
  const auto flat = tensor.contiguous().reshape({-1});
  for (std::int64_t begin = 0; begin < flat.numel(); begin += kChunk) {
    const auto chunk = flat.slice(0, begin, std::min(flat.numel(), begin + kChunk));
    if (!all_true(at::isfinite(chunk))) {
      seen.finite = false;
      return seen;
    }
    seen.integral = seen.integral && all_true(chunk.eq(at::round(chunk)));
    seen.min = std::min(seen.min, at::amin(chunk).item<double>());
    seen.max = std::max(seen.max, at::amax(chunk).item<double>());
    seen.sum_squares += at::sum(chunk.to(at::kDouble).square()).item<double>();
    seen.count += chunk.numel();
  }
  if (flat.numel() == 0) return seen;
  seen.probability = probability_rows(tensor, seen.min);
  if (tensor.dim() >= 2 && tensor.size(-1) >= 2 && tensor.size(-2) >= 2 && tensor.numel() <= kPatternLimit) {
    seen.lower = all_true(at::triu(tensor, 1).eq(0));
    seen.upper = all_true(at::tril(tensor, -1).eq(0));
    seen.symmetric = tensor.size(-1) == tensor.size(-2) && at::equal(tensor, tensor.transpose(-1, -2));
  }
  if (tensor.dim() >= 1 && tensor.size(-1) >= kSortedMinLength && tensor.numel() <= kPatternLimit) {
    const auto n = tensor.size(-1);
    seen.sorted = all_true(tensor.narrow(-1, 1, n - 1).ge(tensor.narrow(-1, 0, n - 1)));
  }
  return seen;
}

Seen combine(const Seen& a, const Seen& b) {
  Seen c;
  c.finite = a.finite && b.finite;
  c.integral = a.integral && b.integral;
  c.probability = a.probability && b.probability;
  c.lower = a.lower && b.lower;
  c.upper = a.upper && b.upper;
  c.symmetric = a.symmetric && b.symmetric;
  c.sorted = a.sorted && b.sorted;
  c.min = std::min(a.min, b.min);
  c.max = std::max(a.max, b.max);
  c.sum_squares = a.sum_squares + b.sum_squares;
  c.count = a.count + b.count;
  return c;
}

// The power of two nearest the values' RMS (in log scale), where it is below 1: exact to multiply by,
// and 1 for randn-like values, so a KernelBench task's draws stay as they are. Larger values are drawn
// at 1: an absolute tolerance set for the task's own values holds there too (huge tests magnitude).
// nullopt for 1, or where there is no RMS.
std::optional<double> magnitude(const Seen& seen) {
  if (seen.count == 0 || !(seen.sum_squares > 0.0)) return std::nullopt;
  const double rms = std::sqrt(seen.sum_squares / static_cast<double>(seen.count));
  const double scale = std::exp2(std::round(std::log2(rms)));
  if (scale >= 1.0 || !(scale > 0.0)) return std::nullopt;
  return scale;
}

std::string number(double v) {
  std::ostringstream out;
  out.precision(6);
  out << v;
  return out.str();
}

}  // namespace

std::vector<InputSpec> infer_input_specs(const std::vector<std::vector<at::Tensor>>& draws) {
  std::vector<InputSpec> specs;
  if (draws.empty()) return specs;
  const std::size_t count = draws.front().size();
  for (std::size_t i = 0; i < count; ++i) {
    InputSpec spec;
    spec.name = "get_inputs()[" + std::to_string(i) + "]";
    std::optional<Seen> seen;
    for (const auto& draw : draws) {
      if (i >= draw.size() || !draw[i].defined() || !at::isFloatingType(draw[i].scalar_type())) {
        seen.reset();
        break;
      }
      const Seen one = look(draw[i]);
      seen = seen ? combine(*seen, one) : one;
    }
    if (!seen) {
      specs.push_back(std::move(spec));
      continue;
    }
    const std::string over = " over " + std::to_string(draws.size()) + " draws";
    if (!seen->finite) {
      spec.fill = Fill::keep;
      spec.inferred = "values that are not all finite" + over;
    } else if (seen->integral) {
      spec.fill = Fill::keep;
      spec.inferred = "integral values in [" + number(seen->min) + ", " + number(seen->max) + "]" + over;
    } else {
      if (seen->probability)
        spec.fill = Fill::probability;
      else if (seen->min >= 0 && seen->max <= 1)
        spec.fill = Fill::unit_interval;
      else if (seen->min > 0)
        spec.fill = Fill::positive;
      else if (seen->min >= 0)
        spec.fill = Fill::nonnegative;
      if (seen->lower && seen->upper)
        spec.pattern = Pattern::diagonal;
      else if (seen->lower)
        spec.pattern = Pattern::lower_triangular;
      else if (seen->upper)
        spec.pattern = Pattern::upper_triangular;
      else if (seen->symmetric)
        spec.pattern = Pattern::symmetric;
      else if (seen->sorted)
        spec.pattern = Pattern::sorted;
      // Values drawn at random anywhere on the line keep the task's magnitude (not those in [0, 1) or
      // rows of probabilities, whose range is the contract).
      if (!spec.fill || *spec.fill == Fill::positive || *spec.fill == Fill::nonnegative) spec.scale = magnitude(*seen);
      spec.inferred = std::string(seen->probability ? "rows summing to 1, " : "") + "values in [" + number(seen->min) +
                      ", " + number(seen->max) + "]" + over +
                      (spec.scale ? ", drawn at scale " + number(*spec.scale) : "");
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::string describe(const InputSpec& spec) {
  std::string kinds;
  if (spec.fill) kinds = std::string(fill_name(*spec.fill));
  if (spec.pattern) kinds += (kinds.empty() ? "" : ", ") + std::string(pattern_name(*spec.pattern));
  if (kinds.empty()) kinds = "random";
  return spec.inferred.empty() ? kinds : kinds + " (" + spec.inferred + ")";
}

}  // namespace kgate::runtime
