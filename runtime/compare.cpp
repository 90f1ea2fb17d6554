// Output comparison under the task's tolerance or quantization contract. Metadata first (shape, dtype,
// device, contiguity), then NaN placement, then values, each failure with its stable reason id.
#include "runtime/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <ATen/TensorOperators.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>

namespace kgate::runtime {
namespace {

constexpr std::int64_t kCompareChunk = std::int64_t{1} << 25;

CompareResult failure(std::string reason_id, std::string message) {
  return {false, std::move(reason_id), std::move(message), 0.0, 0.0, 0.0, 0};
}

// The multi-index of flat position `flat` in a tensor of `sizes` (row-major), for messages.
std::string index_string(std::int64_t flat, at::IntArrayRef sizes) {
  std::vector<std::int64_t> index(sizes.size());
  for (std::size_t d = sizes.size(); d-- > 0;) {
    index[d] = sizes[d] ? flat % sizes[d] : 0;
    flat = sizes[d] ? flat / sizes[d] : 0;
  }
  return shape_string(index);
}

std::int64_t first_true(const at::Tensor& flat_mask) {
  auto hits = flat_mask.nonzero();
  return hits.numel() ? hits[0][0].item<std::int64_t>() : -1;
}

std::string element_message(const char* what, std::int64_t flat, const at::Tensor& e, const at::Tensor& a,
                            at::IntArrayRef sizes) {
  std::ostringstream out;
  out.precision(9);
  out << what << " at " << index_string(flat, sizes) << ": expected " << e[flat].item<double>() << ", got "
      << a[flat].item<double>();
  return out.str();
}

// Quantization contract: cosine similarity, relative L1 and RMSE over the whole output.
CompareResult compare_quantized(const at::Tensor& e, const at::Tensor& a, const QuantizationContract& q,
                                CompareResult result) {
  const double dot = (a * e).sum().item<double>();
  const double norm_a = a.norm().item<double>();
  const double norm_e = e.norm().item<double>();
  double cosine = 1.0;
  if (norm_a > 0.0 || norm_e > 0.0) cosine = (norm_a > 0.0 && norm_e > 0.0) ? dot / (norm_a * norm_e) : 0.0;
  const double abs_err = (a - e).abs().sum().item<double>();
  const double abs_ref = e.abs().sum().item<double>();
  const double rel_l1 =
      abs_ref > 0.0 ? abs_err / abs_ref : (abs_err > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
  const double rmse = e.numel() ? std::sqrt((a - e).square().mean().item<double>()) : 0.0;
  std::ostringstream out;
  out.precision(6);
  if (!(cosine >= q.cosine_min)) out << "cosine similarity " << cosine << " < " << q.cosine_min << "; ";
  if (!(rel_l1 <= q.rel_l1_max)) out << "relative L1 " << rel_l1 << " > " << q.rel_l1_max << "; ";
  if (!(rmse <= q.rmse_max)) out << "RMSE " << rmse << " > " << q.rmse_max << "; ";
  auto message = out.str();
  if (!message.empty()) {
    result.ok = false;
    result.reason_id = "mismatch";
    result.message = "quantization contract: " + message.substr(0, message.size() - 2);
  }
  return result;
}

double largest_finite(at::ScalarType type) {
  switch (type) {
    case at::kHalf:
      return 65504.0;
    case at::kBFloat16:
      return 3.3895313892515355e38;
    case at::kFloat:
      return static_cast<double>(std::numeric_limits<float>::max());
    case at::kDouble:
      return std::numeric_limits<double>::max();
    default:
      return std::numeric_limits<double>::infinity();  // never equal to a finite value
  }
}

}  // namespace

std::string shape_string(at::IntArrayRef sizes) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < sizes.size(); ++i) out << (i ? ", " : "") << sizes[i];
  out << ']';
  return out.str();
}

CompareResult compare_outputs(const at::Tensor& expected, const at::Tensor& actual, const Tolerance& tol,
                              Contract contract, const QuantizationContract& quantization) {
  if (!actual.defined()) return failure("shape-mismatch", "the output is not a tensor");
  if (!expected.defined()) return failure("shape-mismatch", "the reference output is not a tensor");
  if (expected.sizes() != actual.sizes()) {
    return failure("shape-mismatch",
                   "shape " + shape_string(actual.sizes()) + ", expected " + shape_string(expected.sizes()));
  }
  if (expected.scalar_type() != actual.scalar_type()) {
    return failure("dtype-mismatch", std::string("dtype ") + c10::toString(actual.scalar_type()) + ", expected " +
                                         c10::toString(expected.scalar_type()));
  }
  if (expected.device() != actual.device()) {
    return failure("device-mismatch", "device " + actual.device().str() + ", expected " + expected.device().str());
  }
  // A reference that returns a strided view does not oblige the candidate to; a dense one does.
  if (expected.is_contiguous() && !actual.is_contiguous()) {
    return failure("not-contiguous", "the output is not contiguous (strides " + shape_string(actual.strides()) + ")");
  }
  if (actual.is_complex() || expected.is_complex()) {
    return failure("dtype-mismatch", "complex outputs are not supported by the comparison");
  }

  const auto sizes = expected.sizes();
  const auto ef = expected.detach().reshape({-1});
  const auto af = actual.detach().reshape({-1});
  const std::int64_t numel = ef.numel();
  CompareResult result{true, "", "", 0.0, 0.0, 0.0, 0};
  // Chunk by chunk in double: a multi-GiB output costs a few chunk-sized temporaries, not several
  // output-sized ones (KernelBench's level-1 problems have 6 GiB outputs).
  const auto chunk = [&](const at::Tensor& flat, std::int64_t begin) {
    return flat.slice(0, begin, std::min(numel, begin + kCompareChunk)).to(at::kDouble);
  };

  // NaN is never a wildcard: it is accepted only where the reference has NaN too, and required there.
  std::int64_t nan_count = 0;
  std::int64_t nan_first = -1;
  std::int64_t nan_missing = 0;  // NaN in the reference, a number in the output
  for (std::int64_t begin = 0; begin < numel; begin += kCompareChunk) {
    const auto expected_nan = chunk(ef, begin).isnan();
    const auto differs = expected_nan.ne(chunk(af, begin).isnan());
    const auto n = differs.sum().item<std::int64_t>();
    if (n > 0 && nan_first < 0) nan_first = begin + first_true(differs);
    nan_count += n;
    nan_missing += differs.logical_and(expected_nan).sum().item<std::int64_t>();
  }
  if (nan_count > 0) {
    // An output handed over unset starts as NaN (the poison, the output-argument adapters' fill), and a
    // kernel that adds into it without clearing it keeps the NaN: say so where only that is seen.
    const std::string unset_hint =
        nan_missing == 0 ? "; every one is NaN where the reference has a number; one cause is a kernel that adds "
                           "into an output it never clears (a harness hands outputs over unset, as torch.empty does)"
                         : "";
    auto r = failure("nan-mismatch", element_message("NaN placement differs", nan_first, ef, af, sizes) + " (" +
                                         std::to_string(nan_count) + " of " + std::to_string(numel) + " elements" +
                                         unset_hint + ")");
    r.mismatches = nan_count;
    return r;
  }
  if (contract == Contract::quantization) {
    const auto e = ef.to(at::kDouble);
    const auto a = af.to(at::kDouble);
    const auto keep = e.isnan().logical_not();
    return compare_quantized(e.masked_select(keep), a.masked_select(keep), quantization, result);
  }

  // Equal values (including equal infinities and shared NaNs) have no error; an infinity that differs has
  // an infinite error and an exact bound, so it always fails.
  // A reference value at the dtype's largest finite magnitude is at the overflow boundary: the exact
  // result rounds to it or past it, and an honest kernel that rounds the other way gives the infinity
  // of the same sign there (fp16 polynomials under the huge distribution do); and the other way round.
  const double largest = largest_finite(expected.scalar_type());
  double err_sq = 0.0;
  double ref_sq = 0.0;
  std::int64_t first_bad = -1;
  double first_diff = 0.0;
  double first_bound = 0.0;
  for (std::int64_t begin = 0; begin < numel; begin += kCompareChunk) {
    const auto e = chunk(ef, begin);
    const auto a = chunk(af, begin);
    const auto saturated = e.abs()
                               .eq(largest)
                               .logical_and(a.isinf())
                               .logical_or(a.abs().eq(largest).logical_and(e.isinf()))
                               .logical_and(a.sign().eq(e.sign()));
    const auto same = a.eq(e).logical_or(e.isnan()).logical_or(saturated);
    const auto diff = at::where(same, at::zeros_like(e), (a - e).abs());
    const auto finite_e = e.isfinite();
    const auto bound = at::where(finite_e, e.abs().mul(tol.rtol).add(tol.atol), at::zeros_like(e));
    const auto bad = diff.gt(bound);
    const auto n = bad.sum().item<std::int64_t>();
    if (n > 0 && first_bad < 0) {
      const auto pos = first_true(bad);
      first_bad = begin + pos;
      first_diff = diff[pos].item<double>();
      first_bound = bound[pos].item<double>();
    }
    result.mismatches += n;
    if (e.numel()) {
      result.max_abs_err = std::max(result.max_abs_err, diff.max().item<double>());
      // Relative error where it is defined (finite, nonzero reference values).
      const auto rel = at::where(e.ne(0.0).logical_and(finite_e), diff / e.abs(), at::zeros_like(e));
      result.max_rel_err = std::max(result.max_rel_err, rel.max().item<double>());
    }
    err_sq += diff.masked_select(finite_e).square().sum().item<double>();
    ref_sq += e.masked_select(finite_e).square().sum().item<double>();
  }

  // The norm term: relative to the output's own norm, so an output below atol everywhere (which the
  // elementwise term accepts) still has to be right in aggregate (M4). Its absolute floor is atol scaled
  // by norm_rtol / rtol, see docs/notes/runtime-numerics.md for why the manifest's atol * sqrt(numel) is not used.
  const double err_norm = std::sqrt(err_sq);
  const double ref_norm = std::sqrt(ref_sq);
  const double norm_atol = tol.rtol > 0.0 ? tol.atol * (tol.norm_rtol / tol.rtol) : tol.atol;
  const double norm_bound = tol.norm_rtol * ref_norm + norm_atol * std::sqrt(static_cast<double>(numel));
  result.norm_err_ratio =
      norm_bound > 0.0 ? err_norm / norm_bound : (err_norm > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);

  if (result.mismatches > 0) {
    std::ostringstream out;
    out.precision(6);
    out << element_message("value differs", first_bad, ef, af, sizes) << " (|diff| " << first_diff
        << " > atol + rtol * |expected| = " << first_bound << "); " << result.mismatches << " of " << numel
        << " elements differ, max abs err " << result.max_abs_err;
    result.ok = false;
    result.reason_id = "mismatch";
    result.message = out.str();
    return result;
  }
  if (result.norm_err_ratio > 1.0) {
    std::ostringstream out;
    out.precision(6);
    out << "||actual - expected||_2 = " << err_norm << " exceeds norm_rtol * ||expected||_2 + floor = " << norm_bound
        << " (||expected||_2 = " << ref_norm << "): every element is within atol, the whole output is not";
    result.ok = false;
    result.reason_id = "norm-mismatch";
    result.message = out.str();
  }
  return result;
}

std::string output_name(const Outputs& outputs, std::size_t i) {
  return outputs.size() == 1 ? std::string("output") : "output[" + std::to_string(i) + "]";
}

CompareResult compare_all(const Outputs& expected, const Outputs& actual, const Tolerance& tol, bool scale_huge,
                          Contract contract, const QuantizationContract& quantization) {
  if (expected.size() != actual.size())
    return failure("shape-mismatch", "the output has " + std::to_string(actual.size()) +
                                         " tensor(s), the reference's " + std::to_string(expected.size()));
  CompareResult all{true, "", "", 0.0, 0.0, 0.0, 0};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CompareResult one = compare_outputs(expected[i], actual[i], scale_huge ? scaled_to_output(tol, expected[i]) : tol,
                                        contract, quantization);
    if (!one.ok) {
      if (expected.size() > 1) one.message = output_name(expected, i) + ": " + one.message;
      return one;
    }
    all.max_abs_err = std::max(all.max_abs_err, one.max_abs_err);
    all.max_rel_err = std::max(all.max_rel_err, one.max_rel_err);
    all.norm_err_ratio = std::max(all.norm_err_ratio, one.norm_err_ratio);
    all.mismatches += one.mismatches;
  }
  return all;
}

bool same_outputs(const Outputs& a, const Outputs& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].defined() || !b[i].defined() || a[i].sizes() != b[i].sizes() ||
        a[i].scalar_type() != b[i].scalar_type() || !at::equal(a[i], b[i]))
      return false;
  }
  return true;
}

bool outputs_copy_inputs(const Outputs& outputs, const std::vector<at::Tensor>& inputs) {
  if (outputs.empty()) return false;
  // Bits, not values: a NaN copied is a copy.
  const auto bits = [](const at::Tensor& t) { return t.contiguous().reshape({-1}).view(at::kByte); };
  return std::all_of(outputs.begin(), outputs.end(), [&](const at::Tensor& out) {
    return std::any_of(inputs.begin(), inputs.end(), [&](const at::Tensor& in) {
      return out.defined() && in.defined() && out.sizes() == in.sizes() && out.scalar_type() == in.scalar_type() &&
             out.device() == in.device() && at::equal(bits(out), bits(in));
    });
  });
}

Tolerance scaled_to_output(Tolerance tol, const at::Tensor& expected) {
  if (!expected.defined() || !at::isFloatingType(expected.scalar_type()) || expected.numel() == 0) return tol;
  const auto flat = expected.detach().reshape({-1});
  double sum_sq = 0.0;
  std::int64_t count = 0;
  for (std::int64_t begin = 0; begin < flat.numel(); begin += kCompareChunk) {
    const auto e = flat.slice(0, begin, std::min(flat.numel(), begin + kCompareChunk)).to(at::kDouble);
    const auto finite = e.masked_select(e.isfinite());
    sum_sq += finite.square().sum().item<double>();
    count += finite.numel();
  }
  if (count == 0) return tol;
  const double rms = std::sqrt(sum_sq / static_cast<double>(count));
  tol.atol *= std::max(1.0, rms);
  return tol;
}

}  // namespace kgate::runtime
