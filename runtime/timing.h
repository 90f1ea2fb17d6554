// The timed part of a GPU run (runtime stage II): per-call timings of the candidate and of eager PyTorch
// on the same fresh inputs, the kernels CUPTI saw, and the roofline against the device's peaks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/profile.h"
#include "runtime/task.h"
#include "runtime/stats.h"
#include "runtime/trace.h"

namespace kgate::runtime {

// One timed call, measured in the worker around the candidate's forward (or in the judge around the
// reference's). The L2 was flushed and the persisting-L2 lines reset before it.
struct TimedCall {
  double synced_s = 0.0;  // start event .. end event recorded after a device-wide synchronize (the time)
  double stream_s = 0.0;  // start event .. end event recorded on the current stream when forward returned
  double wall_s = 0.0;    // host clock around the same region, synchronize included
};

struct TimedSeries {
  std::vector<TimedCall> calls;
  SampleSummary synced;  // over calls[].synced_s
  SampleSummary wall;    // over calls[].wall_s
};

struct TimingReport {
  ShapeSet shapes;       // the shape set timed: the task's largest by its byte formula (public or hidden)
  std::string dtype;     // the dtype timed (the task's first)
  int warmup_calls = 0;  // drawn at random per run (T9)
  TimedSeries candidate;
  TimedSeries reference;                // eager PyTorch, same inputs, same method
  std::optional<TimedSeries> compiled;  // torch.compile of the reference, when asked for
  double speedup = 0.0;                 // reference median / candidate median (synced)
  std::optional<double> speedup_vs_compile;
  // What CUPTI saw during the candidate's timed calls, one row per kernel name, and the share of kernel
  // time spent in the candidate's own kernels (F5).
  std::vector<KernelSummary> kernels;
  double own_kernel_share = 0.0;
  // The judge's own clock (timing-inconsistent, T5/T6): the median round trip of a timed call, and the
  // median of each timed call's round trip less that of the empty call made right after it.
  double call_round_trip_s = 0.0;
  double judged_s = 0.0;
  // From the task's FLOP/byte formulas at the timed shape, over the candidate's median, against the
  // device's peaks: absent when the task has no formulas or no peaks are known for the GPU.
  std::optional<RooflinePoint> roofline;
  double flops = 0.0;
  double bytes = 0.0;
  std::string compute_peak;  // the calibration peak used ("matmul_bf16", "fp32_fma", ...)
  std::string peaks_source;  // "calibrated" (kgate calibrate's cache) or "datasheet"
  DevicePeaks peaks;
};

// "timing": {...} of `kgate run --format json` and the audit record's "runtime" fields
// (speedup, roofline.{arithmetic_intensity, achieved_gflops, peak_gflops, peak_gbps, mfu, iou}).
nlohmann::json to_json(const TimingReport&);

}  // namespace kgate::runtime
