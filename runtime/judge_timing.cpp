// The judge's timing phase: checked, timed calls of the candidate against the reference on the same
// inputs, the kernels CUPTI saw, and the roofline against the GPU's peaks.
#include "runtime/judge_session.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "runtime/compare.h"
#include "runtime/defences.h"
#include "runtime/embed.h"

namespace kgate::runtime::detail {
namespace {

// The median, IQR and CV of a series' synced and wall times.
Status summarize_series(TimedSeries& series) {
  std::vector<double> synced, wall;
  for (const auto& c : series.calls) {
    synced.push_back(c.synced_s);
    wall.push_back(c.wall_s);
  }
  auto a = summarize(synced);
  auto b = summarize(wall);
  if (!a || !b) return Error{"timing: " + (a ? b.error() : a.error())};
  series.synced = *a;
  series.wall = *b;
  return Status::ok();
}

}  // namespace

// The shape set timed: the one that moves the most bytes (then does the most FLOPs) by the task's
// formulas, public or hidden, so the time measures the kernel rather than launch overhead; without
// formulas the first public set.
ShapeSet Judge::timing_shape(DType dtype) const {
  std::vector<ShapeSet> sets = task_.public_shapes;
  sets.insert(sets.end(), task_.hidden_shapes.begin(), task_.hidden_shapes.end());
  if (sets.empty()) return {};
  if (!task_.bytes && !task_.flops) return sets.front();
  const auto work = [&](const ShapeSet& shape) {
    const auto value = [&](const std::optional<std::string>& formula) {
      if (!formula) return 0.0;
      auto v = eval_formula(*formula, shape, dtype);
      return v ? *v : 0.0;
    };
    return std::make_pair(value(task_.bytes), value(task_.flops));
  };
  return *std::max_element(sets.begin(), sets.end(),
                           [&](const ShapeSet& a, const ShapeSet& b) { return work(a) < work(b); });
}

// The timing phase (GPU runs whose every case passed): the overhead of an empty call, a random number
// of warm-up calls (T9), then options_.timed_calls calls on timing_shape() and the first dtype, each
// with fresh inputs and fully checked, the reference timed on the same inputs here.
Status Judge::run_timing(py::module_& helper, py::object& reference) {
  if (options_.timed_calls <= 0 || options_.device == "cpu") return Status::ok();
#if KGATE_HAVE_CUDA
  const DType dtype = task_.dtypes.front();
  const ShapeSet shapes = timing_shape(dtype);
  const auto fail_case = [&](Verdict verdict, Reason reason) {
    CaseResult failed;
    failed.timed = true;
    failed.shapes = shapes;
    failed.dtype = dtype;
    failed.verdict = verdict;
    failed.reason = std::move(reason);
    report_.cases.push_back(std::move(failed));
    return Status::ok();
  };
  py::object model;
  Answer built = build_models(helper, reference, shapes, dtype, model);
  if (!built.ok) {
    if (built.verdict == Verdict::error) return Error{built.reason.message};
    return fail_case(built.verdict, built.reason);
  }
  if (Status s = settle_contract(helper, reference, shapes, dtype); !s) return s;
  // The judge's clock on calls that run everything but forward: what a call costs around the work.
  // kProbeCalls first (warming the path), then one right after each timed call: each timed call's
  // round trip less its own probe's saw the same load on the machine (other runs compiling beside this
  // one stretch both alike), and the median of those differences is what the judge saw forward take.
  // Each probe draws its inputs anew and lets them go, so no more memory is held than before a timed call.
  std::vector<double> probe_round_trips;
  const auto probe = [&](int calls) -> Result<std::optional<Answer>> {
    auto inputs = make_inputs(helper, reference, dtype, base_distribution_);
    if (!inputs) return Error{inputs.error()};
    std::vector<TensorSlot> slots;
    Outputs unused;
    for (int i = 0; i < calls; ++i) {
      Answer answer = call_candidate(*inputs, slots, unused, true);
      if (!answer.ok) return std::optional<Answer>(answer);
      probe_round_trips.push_back(answer.round_trip_s);
    }
    return std::optional<Answer>();
  };
  {
    auto probed = probe(kProbeCalls);
    if (!probed) return Error{probed.error()};
    if (*probed) return fail_case((*probed)->verdict, (*probed)->reason);
  }
  TimingReport timing;
  timing.shapes = shapes;
  timing.dtype = std::string(dtype_name(dtype));
  timing.warmup_calls = kMinWarmup + static_cast<int>(secret_u64() % (kMaxWarmup - kMinWarmup + 1));
  std::vector<double> round_trips;
  std::vector<double> judged;  // per timed call: its round trip less the probe's right after it
  Trace traced;
  for (int i = 0; i < timing.warmup_calls + options_.timed_calls; ++i) {
    CaseResult result;
    result.timed = true;
    result.shapes = shapes;
    result.dtype = dtype;
    result.seed_index = i;
    result.distribution = base_distribution_;
    CallMeasure measure;
    auto status = run_case(helper, reference, model, result, false, &measure);
    if (!status) return Error{status.error()};
    if (result.verdict != Verdict::pass) {
      report_.cases.push_back(std::move(result));
      return Status::ok();
    }
    if (i < timing.warmup_calls) continue;
    if (!measure.candidate || !measure.reference) return Error{"the worker returned no timing for a GPU call"};
    timing.candidate.calls.push_back(*measure.candidate);
    timing.reference.calls.push_back(*measure.reference);
    round_trips.push_back(measure.round_trip_s);
    for (auto& k : measure.trace.kernels) traced.kernels.push_back(std::move(k));
    auto probed = probe(1);
    if (!probed) return Error{probed.error()};
    if (*probed) return fail_case((*probed)->verdict, (*probed)->reason);
    judged.push_back(measure.round_trip_s - probe_round_trips.back());
  }
  if (Status s = summarize_series(timing.candidate); !s) return s;
  if (Status s = summarize_series(timing.reference); !s) return s;
  timing.speedup =
      timing.candidate.synced.median > 0 ? timing.reference.synced.median / timing.candidate.synced.median : 0.0;
  if (options_.compare_compile) {
    auto compiled = time_compiled_reference(helper, reference, model, dtype);
    if (!compiled) return Error{compiled.error()};
    timing.compiled = std::move(*compiled);
    if (timing.candidate.synced.median > 0)
      timing.speedup_vs_compile = timing.compiled->synced.median / timing.candidate.synced.median;
  }
  timing.kernels = summarize_kernels(traced, kernels_);
  timing.own_kernel_share = candidate_time_share(timing.kernels);
  DevicePeaks floor_peaks;
  if (task_.flops && task_.bytes) {
    auto flops = eval_formula(*task_.flops, shapes, dtype);
    auto bytes = eval_formula(*task_.bytes, shapes, dtype);
    if (flops && bytes) {
      timing.flops = *flops;
      timing.bytes = *bytes;
      timing.compute_peak = compute_peak_for(dtype, task_.category);
      if (auto peaks = device_peaks_for_run(helper, timing.compute_peak)) {
        timing.peaks = peaks->roofline;
        floor_peaks = peaks->floor;
        timing.peaks_source = peaks->source;
        if (auto point = roofline(timing.flops, timing.bytes, timing.candidate.synced.median, timing.peaks))
          timing.roofline = *point;
      }
    }
  }
  timing.call_round_trip_s = median(round_trips);
  timing.judged_s = median(judged);
  report_.timing = timing;
  // Verdicts on the whole series. The judge's own clock first: it is the one the worker cannot touch.
  if (auto reason = check_timer_consistency(timing.candidate.synced.median, timing.judged_s))
    return fail_case(Verdict::fail, *reason);
  if (timing.roofline)
    if (auto reason = check_physics_floor(timing.flops, timing.bytes, timing.candidate.synced.median, floor_peaks))
      return fail_case(Verdict::fail, *reason);
  if (auto reason = check_kernel_policy(task_.policy, timing.kernels, timing.own_kernel_share))
    return fail_case(Verdict::fail, *reason);
  return Status::ok();
#else
  (void)helper;
  (void)reference;
  return Status::ok();
#endif
}

// The compute roof a task's timing is held against: the dtype's matrix rate (fp32 runs: plain FP32
// FMA, since TF32 is a precision downgrade there), or the INT8 rate for quantization tasks.
std::string Judge::compute_peak_for(DType dtype, const std::string& category) {
  if (category == "Quantization") return "matmul_int8";
  switch (dtype) {
    case DType::fp16:
      return "matmul_fp16";
    case DType::bf16:
      return "matmul_bf16";
    case DType::int8:
      return "matmul_int8";
    case DType::fp32:
      break;
  }
  return "fp32_fma";
}

// The peaks of the run's GPU: kgate calibrate's cache (default_calibration_path()), else the
// datasheet. A cache that cannot be read is named in the source, and the datasheet is used.
std::optional<PeaksForRun> Judge::device_peaks_for_run(py::module_& helper, const std::string& compute_peak) {
  std::string gpu;
  try {
    gpu = helper.attr("device_name")().cast<std::string>();
  } catch (const py::error_already_set&) {
    return std::nullopt;
  }
  CalibrationCache cache;
  std::string problem;
  if (const auto path = default_calibration_path(); !path.empty()) {
    if (auto read = read_calibration_cache(path))
      cache = std::move(*read);
    else
      problem = read.error();
  }
  auto peaks = peaks_for_run(cache, gpu, compute_peak);
  if (peaks && !problem.empty()) peaks->source += " (calibration cache not used: " + problem + ")";
  return peaks;
}

#if KGATE_HAVE_CUDA
// The reference's forward, timed the way the worker times the candidate's.
Result<TimedCall> Judge::time_reference(py::module_& helper, py::object& model, py::list& clones, Outputs& expected) {
  if (!reference_timer_) {
    auto timer = cuda::GpuTimer::create();
    if (!timer) return Error{"reference timer: " + timer.error()};
    reference_timer_ = std::move(*timer);
  }
  py::object prepared = helper.attr("prepare_reference")(model, clones);
  if (Status s = reference_timer_->prepare(); !s) return Error{s.message()};
  if (Status s = reference_timer_->begin(); !s) return Error{s.message()};
  py::object out = helper.attr("run_prepared_reference")(model, prepared);
  if (Status s = reference_timer_->end_of_forward(); !s) return Error{s.message()};
  auto timed = reference_timer_->finish();
  if (!timed) return Error{"the reference: " + timed.error()};
  expected = embed::unwrap_all(out);
  return *timed;
}

// torch.compile of the reference at the timed shape, on fresh inputs, after its own warm-up.
Result<TimedSeries> Judge::time_compiled_reference(py::module_& helper, py::object& reference, py::object& model,
                                                   DType dtype) {
  TimedSeries series;
  try {
    py::object compiled = helper.attr("compile_model")(model);
    for (int i = 0; i < kMaxWarmup + options_.timed_calls; ++i) {
      auto inputs = make_inputs(helper, reference, dtype, base_distribution_);
      if (!inputs) return Error{inputs.error()};
      py::list wrapped;
      for (const auto& t : *inputs) wrapped.append(embed::wrap(t));
      Outputs out;
      auto timed = time_reference(helper, compiled, wrapped, out);
      if (!timed) return Error{"torch.compile: " + timed.error()};
      if (i >= kMaxWarmup) series.calls.push_back(*timed);
    }
  } catch (const py::error_already_set& e) {
    return Error{"torch.compile of the reference failed: " + embed::error_text(e)};
  }
  if (Status s = summarize_series(series); !s) return Error{s.message()};
  return series;
}
#else
Result<TimedCall> Judge::time_reference(py::module_&, py::object&, py::list&, Outputs&) {
  return Error{"this build has no CUDA part: no timing"};
}
#endif

}  // namespace kgate::runtime::detail
