// JSON of the timed part of a GPU run.
#include "runtime/timing.h"

namespace kgate::runtime {
namespace {

nlohmann::json summary_json(const SampleSummary& s) {
  return {{"count", s.count}, {"median_s", s.median}, {"q1_s", s.q1},   {"q3_s", s.q3},    {"iqr_s", s.iqr},
          {"cv", s.cv},       {"min_s", s.min},       {"max_s", s.max}, {"mean_s", s.mean}};
}

nlohmann::json series_json(const TimedSeries& series) {
  return {{"synced", summary_json(series.synced)}, {"wall", summary_json(series.wall)}};
}

}  // namespace

nlohmann::json to_json(const TimingReport& t) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : t.kernels)
    kernels.push_back({{"name", k.name},
                       {"origin", std::string(kernel_origin_name(k.origin))},
                       {"launches", k.launches},
                       {"seconds", k.seconds}});
  nlohmann::json shapes = nlohmann::json::object();
  for (const auto& [name, value] : t.shapes) shapes[name] = value;
  nlohmann::json out{{"shapes", shapes},
                     {"dtype", t.dtype},
                     {"warmup_calls", t.warmup_calls},
                     {"candidate", series_json(t.candidate)},
                     {"reference", series_json(t.reference)},
                     {"speedup", t.speedup},
                     {"kernels", kernels},
                     {"own_kernel_share", t.own_kernel_share},
                     {"judge_clock", {{"call_round_trip_s", t.call_round_trip_s}, {"judged_s", t.judged_s}}}};
  if (t.compiled) out["compiled"] = series_json(*t.compiled);
  if (t.speedup_vs_compile) out["speedup_vs_compile"] = *t.speedup_vs_compile;
  if (t.roofline) {
    const RooflinePoint& r = *t.roofline;
    out["roofline"] = {{"flops", t.flops},
                       {"bytes", t.bytes},
                       {"achieved_gflops", r.achieved_flops_per_s / 1e9},
                       {"achieved_gbps", r.achieved_bytes_per_s / 1e9},
                       {"peak_gflops", t.peaks.flops_per_s / 1e9},
                       {"peak_gbps", t.peaks.bytes_per_s / 1e9},
                       {"mfu", r.mfu},
                       {"iou", r.iou},
                       {"utilisation", r.utilisation},
                       {"arithmetic_intensity", r.arithmetic_intensity},
                       {"ridge_point", r.ridge_point},
                       {"memory_bound", r.memory_bound},
                       {"floor_s", r.floor_seconds},
                       {"compute_peak", t.compute_peak},
                       {"peaks_source", t.peaks_source}};
  }
  return out;
}

}  // namespace kgate::runtime
