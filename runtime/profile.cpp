// Profiling arithmetic: kernel origin by name, roofline, physics floor, fast_p.
#include "runtime/profile.h"

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>

namespace kgate::runtime {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Library kernel name patterns. Order matters: cuDNN's convolution kernels are also "xmma" kernels, so
// they are tested before the cuBLAS gemm families.
struct OriginPattern {
  KernelOrigin origin;
  bool prefix;  // true: the base name starts with `text`; false: the full name contains it
  std::string_view text;
};
constexpr std::array kLibraryPatterns{
    OriginPattern{KernelOrigin::aten, true, "at::"},
    OriginPattern{KernelOrigin::aten, false, "at::native::"},
    OriginPattern{KernelOrigin::aten, false, "at_cuda_detail::"},
    OriginPattern{KernelOrigin::cudnn, false, "cudnn::"},
    OriginPattern{KernelOrigin::cudnn, true, "cudnn"},
    OriginPattern{KernelOrigin::cudnn, false, "implicit_convolve"},
    OriginPattern{KernelOrigin::cudnn, false, "explicit_convolve"},
    OriginPattern{KernelOrigin::cudnn, false, "precomputed_convolve"},
    OriginPattern{KernelOrigin::cudnn, false, "winograd"},
    OriginPattern{KernelOrigin::cudnn, false, "fprop"},
    OriginPattern{KernelOrigin::cudnn, false, "dgrad"},
    OriginPattern{KernelOrigin::cudnn, false, "wgrad"},
    OriginPattern{KernelOrigin::cudnn, false, "conv2d_grouped_direct"},
    OriginPattern{KernelOrigin::cutlass, false, "cutlass::"},
    OriginPattern{KernelOrigin::cutlass, true, "cutlass"},
    OriginPattern{KernelOrigin::cublas, true, "cublas"},
    OriginPattern{KernelOrigin::cublas, false, "cublasLt"},
    OriginPattern{KernelOrigin::cublas, true, "nvjet_"},
    OriginPattern{KernelOrigin::cublas, true, "sm90_xmma"},
    OriginPattern{KernelOrigin::cublas, true, "sm80_xmma"},
    OriginPattern{KernelOrigin::cublas, true, "sm86_xmma"},
    OriginPattern{KernelOrigin::cublas, true, "sm89_xmma"},
    OriginPattern{KernelOrigin::cublas, true, "sm75_xmma"},
    OriginPattern{KernelOrigin::cublas, true, "sm70_xmma"},
    OriginPattern{KernelOrigin::cublas, true, "ampere_"},
    OriginPattern{KernelOrigin::cublas, true, "volta_"},
    OriginPattern{KernelOrigin::cublas, true, "turing_"},
    OriginPattern{KernelOrigin::cublas, true, "maxwell_"},
    OriginPattern{KernelOrigin::cublas, true, "gemv"},
    OriginPattern{KernelOrigin::cublas, true, "gemmk"},
    OriginPattern{KernelOrigin::cublas, true, "gemmSN"},
    OriginPattern{KernelOrigin::cublas, true, "splitKreduce"},
    OriginPattern{KernelOrigin::triton_generated, true, "triton_"},
};

}  // namespace

std::string_view kernel_origin_name(KernelOrigin origin) {
  switch (origin) {
    case KernelOrigin::candidate:
      return "candidate";
    case KernelOrigin::aten:
      return "aten";
    case KernelOrigin::cublas:
      return "cublas";
    case KernelOrigin::cudnn:
      return "cudnn";
    case KernelOrigin::cutlass:
      return "cutlass";
    case KernelOrigin::triton_generated:
      return "triton-generated";
    case KernelOrigin::unknown:
      return "unknown";
  }
  return "unknown";
}

std::string demangle(std::string_view name) {
  if (!starts_with(name, "_Z")) return std::string(name);
  const std::string mangled(name);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                  &std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

std::string kernel_base_name(std::string_view demangled) {
  // Drop the parameter list: the last top-level '(' (template arguments may hold parentheses).
  std::string_view s = demangled;
  int depth = 0;
  std::size_t cut = s.size();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>') --depth;
    if (s[i] == '(' && depth == 0) {
      cut = i;
      break;
    }
  }
  s = s.substr(0, cut);
  // Drop template arguments at depth 0 and keep the last top-level token (skips "void ", return types).
  std::string base;
  depth = 0;
  for (char c : s) {
    if (c == '<') ++depth;
    if (depth == 0 && c != '>') base.push_back(c);
    if (c == '>') --depth;
    if (depth == 0 && c == ' ') base.clear();
  }
  return base;
}

KernelOrigin classify_kernel(std::string_view name, const std::vector<std::string>& candidate_names) {
  const std::string full = demangle(name);
  const std::string base = kernel_base_name(full);
  const std::string_view last =
      std::string_view(base).substr(base.rfind("::") == std::string::npos ? 0 : base.rfind("::") + 2);
  for (const auto& own : candidate_names) {
    if (own == name || own == full || own == base || own == last) return KernelOrigin::candidate;
  }
  for (const auto& pattern : kLibraryPatterns) {
    if (pattern.prefix ? starts_with(base, pattern.text) : contains(full, pattern.text)) return pattern.origin;
  }
  return KernelOrigin::unknown;
}

Result<RooflinePoint> roofline(double flops, double bytes, double seconds, const DevicePeaks& peaks) {
  if (!(seconds > 0.0) || !std::isfinite(seconds)) return Error{"kernel time must be positive and finite"};
  if (!(peaks.bytes_per_s > 0.0) || !(peaks.flops_per_s > 0.0)) return Error{"device peaks must be positive"};
  if (!(flops >= 0.0) || !(bytes >= 0.0)) return Error{"FLOP and byte counts must not be negative"};
  RooflinePoint r;
  r.achieved_flops_per_s = flops / seconds;
  r.achieved_bytes_per_s = bytes / seconds;
  r.mfu = r.achieved_flops_per_s / peaks.flops_per_s;
  r.iou = r.achieved_bytes_per_s / peaks.bytes_per_s;
  r.utilisation = std::max(r.mfu, r.iou);
  r.ridge_point = peaks.flops_per_s / peaks.bytes_per_s;
  r.arithmetic_intensity = bytes > 0.0 ? flops / bytes : std::numeric_limits<double>::infinity();
  r.memory_bound = r.arithmetic_intensity < r.ridge_point;
  r.floor_seconds = std::max(bytes / peaks.bytes_per_s, flops / peaks.flops_per_s);
  return r;
}

std::optional<Reason> check_physics_floor(double flops, double bytes, double seconds, const DevicePeaks& peaks,
                                          double margin) {
  if (flops <= 0.0 && bytes <= 0.0) return std::nullopt;
  if (!(peaks.bytes_per_s > 0.0) || !(peaks.flops_per_s > 0.0)) return std::nullopt;
  const double floor_seconds = std::max(bytes / peaks.bytes_per_s, flops / peaks.flops_per_s);
  if (seconds >= floor_seconds * margin) return std::nullopt;
  std::ostringstream out;
  out.precision(4);
  out << "measured " << seconds * 1e6 << " us, below the physics floor of " << floor_seconds * 1e6
      << " us (max(bytes / peak bandwidth, FLOP / peak rate) for " << bytes << " bytes and " << flops
      << " FLOP): the timing does not measure the work";
  return Reason{"physics-floor", out.str()};
}

const std::vector<double>& fast_p_thresholds() {
  static const std::vector<double> thresholds{0.0, 1.0, 1.5, 2.0};
  return thresholds;
}

double fast_p(const std::vector<TaskOutcome>& outcomes, double p) {
  if (outcomes.empty()) return 0.0;
  const auto hits =
      std::count_if(outcomes.begin(), outcomes.end(), [p](const TaskOutcome& o) { return o.correct && o.speedup > p; });
  return static_cast<double>(hits) / static_cast<double>(outcomes.size());
}

double geomean_speedup(const std::vector<TaskOutcome>& outcomes) {
  double log_sum = 0.0;
  std::size_t n = 0;
  for (const auto& o : outcomes) {
    if (!o.correct || !(o.speedup > 0.0) || !std::isfinite(o.speedup)) continue;
    log_sum += std::log(o.speedup);
    ++n;
  }
  return n ? std::exp(log_sum / static_cast<double>(n)) : 0.0;
}

std::vector<FastPRow> fast_p_table(const std::vector<TaskOutcome>& outcomes) {
  std::map<std::string, std::vector<TaskOutcome>> by_category;
  for (const auto& o : outcomes) by_category[o.category].push_back(o);
  auto row_of = [](std::string category, const std::vector<TaskOutcome>& group) {
    FastPRow row;
    row.category = std::move(category);
    row.tasks = group.size();
    for (double p : fast_p_thresholds()) row.fast_p[p] = fast_p(group, p);
    row.geomean_speedup = geomean_speedup(group);
    return row;
  };
  std::vector<FastPRow> rows;
  for (const auto& [category, group] : by_category) rows.push_back(row_of(category, group));
  rows.push_back(row_of("all", outcomes));
  return rows;
}

}  // namespace kgate::runtime
