// The judge's case loop: reference in the embedded Python, candidate in the worker, defences per call.
#include "runtime/judge.h"

#include <fcntl.h>
#include <ftw.h>
#include <sys/file.h>
#include <unistd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/random.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <fstream>
#include <ostream>
#include <map>
#include <set>
#include <sstream>

#include <ATen/ATen.h>

#include "analyzers/pipeline/pipeline.h"
#include "runtime/calibration.h"
#include "runtime/compare.h"
#include "runtime/defences.h"
#include "runtime/embed.h"
#include "runtime/gpu_evidence.h"
#include "runtime/input_contract.h"
#include "runtime/shm_arena.h"
#include "runtime/worker_process.h"
#if KGATE_HAVE_CUDA
#include "runtime/cuda/gpu_timer.h"
#endif

namespace py = pybind11;
using nlohmann::json;

namespace kgate::runtime {
namespace {

// Seeds come from the kernel's generator and live only in this process's memory.
std::uint64_t secret_u64() {
  std::uint64_t value = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  std::size_t got = 0;
  while (got < sizeof value) {
    const ssize_t n = ::getrandom(bytes + got, sizeof value - got, 0);
    if (n > 0) got += static_cast<std::size_t>(n);
  }
  return value;
}

std::string hex32(std::uint64_t v) {
  std::ostringstream out;
  out << std::hex << std::setw(8) << std::setfill('0') << (v & 0xffffffffu);
  return out.str();
}

// What came back from the worker for one request: the answer, or how the worker failed.
struct Answer {
  bool ok = false;
  json body;
  double round_trip_s = 0;  // the judge's own clock from the request to the answer
  Verdict verdict = Verdict::pass;
  Reason reason;
};

// A scratch directory for one run: the worker's private directory and its log. Removed at the end.
class RunDirectory {
 public:
  RunDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kgate-run-XXXXXX").string();
    if (::mkdtemp(pattern.data())) root_ = pattern;
  }
  // nftw, not std::filesystem::remove_all: libtorch.so exports its own copy of that symbol, which
  // interposes on libstdc++'s and crashes (seen with the torch 2.11 wheel).
  ~RunDirectory() {
    if (root_.empty()) return;
    ::nftw(root_.c_str(), [](const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }, 16,
           FTW_DEPTH | FTW_PHYS);
  }
  bool ok() const { return !root_.empty(); }
  std::filesystem::path private_dir() const { return root_ / "private"; }
  std::filesystem::path log() const { return root_ / "worker.log"; }

 private:
  std::filesystem::path root_;
};

std::string tail_of(const std::filesystem::path& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > bytes ? text.substr(text.size() - bytes) : text;
}

// What one call of the timing phase measured: the candidate's call as the worker timed it, the judge's
// round trip for it, the reference's call as the judge timed it, and the kernels CUPTI saw.
struct CallMeasure {
  std::optional<TimedCall> candidate;
  std::optional<TimedCall> reference;
  double round_trip_s = 0;
  Trace trace;
};

L2Pinning l2_from(const json& body) {
  const json l2 = body.value("l2", json::object());
  return {l2.value("persisting_limit", std::size_t{0}), l2.value("window_bytes", std::size_t{0}),
          l2.value("baseline_limit", std::size_t{0})};
}

std::optional<TimedCall> timed_call_from(const json& measured) {
  if (!measured.contains("timing")) return std::nullopt;
  const json& t = measured["timing"];
  TimedCall call;
  call.synced_s = t.value("synced_s", 0.0);
  call.stream_s = t.value("stream_s", 0.0);
  call.wall_s = t.value("wall_s", 0.0);
  return call;
}

bool out_of_memory(const std::string& text) {
  return text.find("out of memory") != std::string::npos || text.find("OutOfMemoryError") != std::string::npos;
}

// What a run's arena must hold, from the reference itself.
struct ArenaSize {
  std::size_t bytes = 0;            // 0: unknown (the device's default applies)
  std::size_t output_bytes = 0;     // the largest reference output (0: unknown)
};

// Measures every shape set on the meta device (the inputs get_inputs() builds, the output the reference
// returns, floating tensors at 4 bytes): the inputs plus twice the output (a candidate's output lands
// after the inputs; room for one of another layout), plus 64 MiB for alignment. Where the task has a
// byte formula, twice its largest value plus 256 MiB when that is more.
ArenaSize arena_size_for(const Task& task, py::module_& helper, py::object& reference) {
  ArenaSize size;
  std::vector<ShapeSet> sets = task.public_shapes;
  sets.insert(sets.end(), task.hidden_shapes.begin(), task.hidden_shapes.end());
  if (sets.empty()) sets.emplace_back();
  for (const auto& shape : sets) {
    json shape_json = json::object();
    for (const auto& [name, value] : shape) shape_json[name] = value;
    try {
      helper.attr("set_shape_globals")(reference, shape_json.dump());
      py::tuple io = helper.attr("io_bytes")(reference, 0);
      const auto inputs = io[0].cast<std::size_t>();
      const std::size_t output = io[1].is_none() ? inputs : io[1].cast<std::size_t>();
      if (!io[1].is_none()) size.output_bytes = std::max(size.output_bytes, output);
      size.bytes = std::max(size.bytes, inputs + 2 * output + (std::size_t{64} << 20));
    } catch (const py::error_already_set&) {
      // get_inputs() itself failed on meta: the cases report the reference's own error.
    }
    if (task.bytes)
      for (const DType dtype : task.dtypes)
        if (auto v = eval_formula(*task.bytes, shape, dtype); v && *v > 0)
          size.bytes = std::max(size.bytes, static_cast<std::size_t>(2.0 * *v) + (std::size_t{256} << 20));
  }
  return size;
}

// A case that a worker answer other than a result ended (crash, timeout, violation, harness limit).
bool ended_by(CaseResult& result, const Answer& answer) {
  result.verdict = answer.verdict;
  result.reason = answer.reason;
  return true;
}

class Judge {
 public:
  Judge(const Task& task, const RunOptions& options, RunReport& report, WorkerProcess& worker, CompileCache& cache,
        const at::Tensor& arena)
      : task_(task), options_(options), report_(report), worker_(worker), cache_(cache), arena_(arena) {}

  // Waits for `expected`, serving compile requests meanwhile. Any other ending is a verdict.
  Answer await(const std::string& expected, const std::string& what, int timeout_ms) {
    for (;;) {
      MessageRead read = worker_.receive(timeout_ms);
      Answer answer;
      switch (read.kind) {
        case MessageRead::Kind::timeout:
          worker_.kill();
          report_.worker_end = worker_.reap(1000);
          answer.verdict = Verdict::timeout;
          answer.reason = {"timeout", "no answer to " + what + " within " + std::to_string(timeout_ms) + " ms"};
          return answer;
        case MessageRead::Kind::closed: {
          report_.worker_end = worker_.reap(2000);
          const bool sigsys = report_.worker_end.find("SIGSYS") != std::string::npos;
          const bool sigxcpu = report_.worker_end.find("SIGXCPU") != std::string::npos;
          answer.verdict = sigsys ? Verdict::sandbox_violation : sigxcpu ? Verdict::timeout : Verdict::crashed;
          answer.reason = {sigsys ? "sandbox-violation" : sigxcpu ? "timeout" : "crashed",
                           "the worker " + report_.worker_end + " during " + what};
          return answer;
        }
        case MessageRead::Kind::malformed:
          worker_.kill();
          report_.worker_end = worker_.reap(1000);
          answer.verdict = Verdict::crashed;
          answer.reason = {"crashed", "malformed message from the worker during " + what + ": " + read.error};
          return answer;
        case MessageRead::Kind::message:
          break;
      }
      const std::string op = read.body.value("op", "");
      if (op == expected) {
        answer.ok = true;
        answer.body = std::move(read.body);
        return answer;
      }
      if (op == "compile") {
        serve_compile(read.body.value("request", json::object()));
        continue;
      }
      if (op == "error" && read.body.contains("arena_needed")) return arena_answer(read.body);
      if (op == "error" && out_of_memory(read.body.value("message", ""))) {
        // Out of GPU memory in the candidate: the candidate's only when it had the GPU to itself.
        answer.verdict = options_.alone ? Verdict::crashed : Verdict::harness_error;
        answer.reason = {options_.alone ? "crashed" : "out-of-memory",
                         what + " ran out of GPU memory" + (options_.alone ? " with the GPU to itself" : "") + ": " +
                             read.body.value("message", "")};
        return answer;
      }
      if (op == "violation") {
        report_.worker_end = worker_.reap(2000);
        answer.verdict = Verdict::sandbox_violation;
        answer.reason = {"sandbox-violation", "syscall " + read.body.value("syscall", std::string("?")) + " during " + what};
        return answer;
      }
      answer.verdict = Verdict::crashed;
      answer.reason = {"crashed", what + " failed: " + read.body.value("message", "unexpected message '" + op + "'")};
      return answer;
    }
  }

  Answer start_and_load(const std::filesystem::path& submission) {
    json setup{{"op", "setup"}, {"device", options_.device}};
    if (options_.device != "cpu") setup["cuda_arena"] = cuda_arena_handle_;
    if (Status s = worker_.send(setup); !s) return closed_answer("setup");
    Answer ready = await("ready", "start-up", options_.start_timeout_ms);
    if (!ready.ok) return ready;
    report_.sandbox = sandbox_state_from_json(ready.body.value("sandbox", json::object()));
    const std::string module = "kgate_candidate_" + hex32(secret_u64());
    if (Status s = worker_.send({{"op", "load"}, {"path", std::filesystem::absolute(submission).string()}, {"module", module}}); !s)
      return closed_answer("import");
    return await("loaded", "import of the submission", options_.start_timeout_ms);
  }

  void set_cuda_arena_handle(std::string handle) { cuda_arena_handle_ = std::move(handle); }
  void set_candidate_kernels(std::vector<std::string> names) { kernels_ = std::move(names); }

  // Runs every case; stops at the first case that ends the worker.
  Status run_cases(py::module_& helper, py::object& reference) {
    std::vector<std::pair<ShapeSet, bool>> shape_sets;
    for (const auto& s : task_.public_shapes) shape_sets.emplace_back(s, false);
    if (options_.hidden_shapes)
      for (const auto& s : task_.hidden_shapes) shape_sets.emplace_back(s, true);
    if (shape_sets.empty()) shape_sets.emplace_back(ShapeSet{}, false);
    const int seeds = options_.seeds > 0 ? options_.seeds : (options_.device == "cpu" ? 1 : 5);
    const std::vector<Distribution> distributions = options_.distributions.empty() ? all_distributions() : options_.distributions;

    for (std::size_t shape_index = 0; shape_index < shape_sets.size(); ++shape_index) {
      const auto& [shapes, hidden] = shape_sets[shape_index];
      for (const DType dtype : task_.dtypes) {
        py::object model;
        Answer built = build_models(helper, reference, shapes, dtype, model);
        if (!built.ok) {
          if (built.verdict == Verdict::error) return Error{built.reason.message};
          return finish_with(built, shape_index, hidden, shapes, dtype);
        }
        if (Status s = settle_contract(helper, reference, shapes, dtype); !s) return s;
        bool determinism_pending = true;
        for (int seed_index = 0; seed_index < seeds; ++seed_index) {
          for (const Distribution distribution : distributions) {
            if (auto why = distribution_conflict(*specs_, distribution)) {
              const bool known = std::any_of(report_.skipped.begin(), report_.skipped.end(),
                                             [&](const SkippedDistribution& s) { return s.distribution == distribution; });
              if (!known) report_.skipped.push_back({distribution, *why});
              continue;
            }
            CaseResult result;
            result.shape_index = shape_index;
            result.hidden_shape = hidden;
            result.shapes = shapes;
            result.dtype = dtype;
            result.seed_index = seed_index;
            result.distribution = distribution;
            auto status = run_case(helper, reference, model, result, determinism_pending);
            if (!status) return Error{status.error()};
            determinism_pending = determinism_pending && !result.determinism_checked;
            const Verdict v = result.verdict;
            report_.cases.push_back(std::move(result));
            if (v != Verdict::pass && v != Verdict::fail) return Status::ok();
          }
        }
        // Once per run, on the first shape set and dtype whose cases all passed: does the output depend
        // on each input where the reference's does (degenerate references, analytic shortcuts)?
        if (shape_index == 0 && dtype == task_.dtypes.front() &&
            std::all_of(report_.cases.begin(), report_.cases.end(), [](const CaseResult& c) { return c.verdict == Verdict::pass; })) {
          CaseResult probe;
          probe.shapes = shapes;
          probe.dtype = dtype;
          auto status = probe_input_dependence(helper, reference, model, probe);
          if (!status) return Error{status.error()};
          if (probe.verdict != Verdict::pass) {
            const Verdict v = probe.verdict;
            report_.cases.push_back(std::move(probe));
            if (v != Verdict::fail) return Status::ok();
          }
        }
      }
    }
    return Status::ok();
  }

  // The reference's output for `inputs` (cloned first: the reference may write its inputs).
  at::Tensor reference_output(py::module_& helper, py::object& model, const std::vector<at::Tensor>& inputs) {
    py::list clones;
    for (const auto& t : inputs) clones.append(embed::wrap(t.clone()));
    return embed::unwrap(helper.attr("run_reference")(model, clones));
  }

  // ignores-input (M15): each floating input in turn is poisoned with NaN. Where the reference's output
  // changes, the candidate's must change too (any change counts: an honest max(x, 0) may turn NaN into
  // 0); a candidate that returns the very same output never read that input: a shortcut that fits a
  // degenerate reference, such as a mean over a normalisation that is its bias whatever x is. Also
  // notes, for the report, inputs the reference's output does not depend on (a fresh draw of that input
  // leaves it within tolerance) and a reference whose output zeros would match.
  Result<bool> probe_input_dependence(py::module_& helper, py::object& reference, py::object& model, CaseResult& result) {
    auto made = make_inputs(helper, reference, result.dtype, Distribution::normal);
    auto other = make_inputs(helper, reference, result.dtype, Distribution::normal);
    if (!made || !other) return Error{made ? other.error() : made.error()};
    const std::vector<at::Tensor>& inputs = *made;
    at::Tensor plain_out;
    at::Tensor expected;
    std::vector<TensorSlot> slots;
    try {
      expected = reference_output(helper, model, inputs);
    } catch (const py::error_already_set& e) {
      return Error{"the reference failed: " + embed::error_text(e)};
    }
    if (Answer a = call_candidate(inputs, slots, plain_out); !a.ok) return ended_by(result, a);
    const Tolerance tolerance = task_.tolerance_for(result.dtype);
    if (expected.numel() > 0 && at::isFloatingType(expected.scalar_type()) &&
        compare_outputs(expected, at::zeros_like(expected), tolerance, task_.contract, task_.quantization).ok)
      report_.reference_notes.push_back("an output of zeros matches the reference's output within tolerance");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (!at::isFloatingType(inputs[i].scalar_type()) || (i < specs_->size() && (*specs_)[i].fill == Fill::keep)) continue;
      const std::string name = "get_inputs()[" + std::to_string(i) + "]";
      std::vector<at::Tensor> redrawn = inputs;
      redrawn[i] = (*other)[i];
      std::vector<at::Tensor> poisoned = inputs;
      poisoned[i] = at::full_like(inputs[i], std::numeric_limits<double>::quiet_NaN());
      at::Tensor reference_redrawn;
      at::Tensor reference_poisoned;
      try {
        reference_redrawn = reference_output(helper, model, redrawn);
        reference_poisoned = reference_output(helper, model, poisoned);
      } catch (const py::error_already_set& e) {
        return Error{"the reference failed: " + embed::error_text(e)};
      }
      if (compare_outputs(expected, reference_redrawn, tolerance, task_.contract, task_.quantization).ok)
        report_.reference_notes.push_back("reference-independent-of-input: the reference's output stays within tolerance when " +
                                          name + " is drawn afresh");
      if (reference_poisoned.sizes() == expected.sizes() && at::equal(reference_poisoned, expected)) continue;
      at::Tensor poisoned_out;
      Answer answer = call_candidate(poisoned, slots, poisoned_out);
      // A candidate that stops on NaN input reacted to it; a timeout or a sandbox violation is a verdict.
      if (!answer.ok && answer.verdict == Verdict::crashed && answer.reason.id == "crashed" && worker_.alive()) continue;
      if (!answer.ok) return ended_by(result, answer);
      if (poisoned_out.sizes() == plain_out.sizes() && at::equal(poisoned_out, plain_out)) {
        result.verdict = Verdict::fail;
        result.reason = Reason{"ignores-input", "with " + name + " all NaN the output is exactly what it was, while the "
                                                "reference's output changes: the submission never reads that input"};
        return true;
      }
    }
    return true;
  }

  // The shape set timed: the one that moves the most bytes (then does the most FLOPs) by the task's
  // formulas, public or hidden, so the time measures the kernel rather than launch overhead; without
  // formulas the first public set.
  ShapeSet timing_shape(DType dtype) const {
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
    return *std::max_element(sets.begin(), sets.end(), [&](const ShapeSet& a, const ShapeSet& b) { return work(a) < work(b); });
  }

  // The timing phase (GPU runs whose every case passed): the overhead of an empty call, a random number
  // of warm-up calls (T9), then options_.timed_calls calls on timing_shape() and the first dtype, each
  // with fresh inputs and fully checked, the reference timed on the same inputs here.
  Status run_timing(py::module_& helper, py::object& reference) {
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
    std::vector<double> probe_round_trips;
    {
      auto inputs = make_inputs(helper, reference, dtype, Distribution::normal);
      if (!inputs) return Error{inputs.error()};
      std::vector<TensorSlot> slots;
      at::Tensor unused;
      for (int i = 0; i < kProbeCalls; ++i) {
        Answer probe = call_candidate(*inputs, slots, unused, true);
        if (!probe.ok) return fail_case(probe.verdict, probe.reason);
        probe_round_trips.push_back(probe.round_trip_s);
      }
    }
    TimingReport timing;
    timing.shapes = shapes;
    timing.dtype = std::string(dtype_name(dtype));
    timing.warmup_calls = kMinWarmup + static_cast<int>(secret_u64() % (kMaxWarmup - kMinWarmup + 1));
    std::vector<double> round_trips;
    Trace traced;
    for (int i = 0; i < timing.warmup_calls + options_.timed_calls; ++i) {
      CaseResult result;
      result.timed = true;
      result.shapes = shapes;
      result.dtype = dtype;
      result.seed_index = i;
      result.distribution = Distribution::normal;
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
    }
    const auto series_summary = [](TimedSeries& series) -> Status {
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
    };
    if (Status s = series_summary(timing.candidate); !s) return s;
    if (Status s = series_summary(timing.reference); !s) return s;
    timing.speedup = timing.candidate.synced.median > 0 ? timing.reference.synced.median / timing.candidate.synced.median : 0.0;
    if (options_.compare_compile) {
      auto compiled = time_compiled_reference(helper, reference, model, dtype);
      if (!compiled) return Error{compiled.error()};
      timing.compiled = std::move(*compiled);
      if (timing.candidate.synced.median > 0) timing.speedup_vs_compile = timing.compiled->synced.median / timing.candidate.synced.median;
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
          if (auto point = roofline(timing.flops, timing.bytes, timing.candidate.synced.median, timing.peaks)) timing.roofline = *point;
        }
      }
    }
    const double median_round_trip = median(round_trips);
    const double median_probe = median(probe_round_trips);
    report_.timing = timing;
    // Verdicts on the whole series. The judge's own clock first: it is the one the worker cannot touch.
    if (auto reason = check_timer_consistency(timing.candidate.synced.median, median_round_trip, median_probe))
      return fail_case(Verdict::fail, *reason);
    if (timing.roofline)
      if (auto reason = check_physics_floor(timing.flops, timing.bytes, timing.candidate.synced.median, floor_peaks))
        return fail_case(Verdict::fail, *reason);
    if (auto reason = check_kernel_policy(task_.policy, timing.kernels, timing.own_kernel_share)) return fail_case(Verdict::fail, *reason);
    return Status::ok();
#else
    (void)helper;
    (void)reference;
    return Status::ok();
#endif
  }

 private:
  static constexpr int kProbeCalls = 10;
  static constexpr int kMinWarmup = 3;
  static constexpr int kMaxWarmup = 12;

  // The compute roof a task's timing is held against: the dtype's matrix rate (fp32 runs: plain FP32
  // FMA, since TF32 is a precision downgrade there), or the INT8 rate for quantization tasks.
  static std::string compute_peak_for(DType dtype, const std::string& category) {
    if (category == "Quantization") return "matmul_int8";
    switch (dtype) {
      case DType::fp16: return "matmul_fp16";
      case DType::bf16: return "matmul_bf16";
      case DType::int8: return "matmul_int8";
      case DType::fp32: break;
    }
    return "fp32_fma";
  }

  // The peaks of the run's GPU: kgate calibrate's cache (default_calibration_path()), else the
  // datasheet. A cache that cannot be read is named in the source, and the datasheet is used.
  std::optional<PeaksForRun> device_peaks_for_run(py::module_& helper, const std::string& compute_peak) {
    std::string gpu;
    try {
      gpu = helper.attr("device_name")().cast<std::string>();
    } catch (const py::error_already_set&) {
      return std::nullopt;
    }
    CalibrationCache cache;
    std::string problem;
    if (const auto path = default_calibration_path(); !path.empty()) {
      if (auto read = read_calibration_cache(path)) cache = std::move(*read);
      else problem = read.error();
    }
    auto peaks = peaks_for_run(cache, gpu, compute_peak);
    if (peaks && !problem.empty()) peaks->source += " (calibration cache not used: " + problem + ")";
    return peaks;
  }

#if KGATE_HAVE_CUDA
  // The reference's forward, timed the way the worker times the candidate's.
  Result<TimedCall> time_reference(py::module_& helper, py::object& model, py::list& clones, at::Tensor& expected) {
    if (!reference_timer_) {
      auto timer = cuda::GpuTimer::create();
      if (!timer) return Error{"reference timer: " + timer.error()};
      reference_timer_ = std::move(*timer);
    }
    if (Status s = reference_timer_->prepare(); !s) return Error{s.message()};
    if (Status s = reference_timer_->begin(); !s) return Error{s.message()};
    py::object out = helper.attr("run_reference")(model, clones);
    if (Status s = reference_timer_->end_of_forward(); !s) return Error{s.message()};
    auto timed = reference_timer_->finish();
    if (!timed) return Error{"the reference: " + timed.error()};
    expected = embed::unwrap(out);
    return *timed;
  }

  // torch.compile of the reference at the timed shape, on fresh inputs, after its own warm-up.
  Result<TimedSeries> time_compiled_reference(py::module_& helper, py::object& reference, py::object& model, DType dtype) {
    TimedSeries series;
    try {
      py::object compiled = helper.attr("compile_model")(model);
      for (int i = 0; i < kMaxWarmup + options_.timed_calls; ++i) {
        auto inputs = make_inputs(helper, reference, dtype, Distribution::normal);
        if (!inputs) return Error{inputs.error()};
        py::list wrapped;
        for (const auto& t : *inputs) wrapped.append(embed::wrap(t));
        at::Tensor out;
        auto timed = time_reference(helper, compiled, wrapped, out);
        if (!timed) return Error{"torch.compile: " + timed.error()};
        if (i >= kMaxWarmup) series.calls.push_back(*timed);
      }
    } catch (const py::error_already_set& e) {
      return Error{"torch.compile of the reference failed: " + embed::error_text(e)};
    }
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
    return series;
  }

  std::unique_ptr<cuda::GpuTimer> reference_timer_;
#else
  Result<TimedCall> time_reference(py::module_&, py::object&, py::list&, at::Tensor&) {
    return Error{"this build has no CUDA part: no timing"};
  }
#endif

  // The worker's output did not fit the arena. An output no larger than twice the reference's is the
  // harness's limit (harness-error); a larger one is the candidate's wrong shape.
  Answer arena_answer(const json& body) {
    Answer answer;
    const auto needed = body.value("arena_needed", std::size_t{0});
    const auto output = body.value("output_bytes", std::size_t{0});
    if (expected_output_bytes_ > 0 && output > 2 * expected_output_bytes_) {
      answer.verdict = Verdict::fail;
      answer.reason = {"shape-mismatch", body.value("message", std::string()) + ": " + std::to_string(output) +
                                             " bytes, the reference's output has " + std::to_string(expected_output_bytes_)};
      return answer;
    }
    answer.verdict = Verdict::harness_error;
    answer.reason = {"arena-too-small", body.value("message", std::string()) + " (" + std::to_string(arena_.numel() >> 20) +
                                            " MiB; the call needs " + std::to_string((needed + (std::size_t{1} << 20) - 1) >> 20) +
                                            " MiB): a limit of the harness; rerun with a larger --arena-mib"};
    return answer;
  }

  Answer closed_answer(const std::string& what) {
    Answer answer;
    report_.worker_end = worker_.reap(2000);
    answer.verdict = Verdict::crashed;
    answer.reason = {"crashed", "the worker " + report_.worker_end + " before " + what};
    return answer;
  }

  Status finish_with(const Answer& answer, std::size_t shape_index, bool hidden, const ShapeSet& shapes, DType dtype) {
    CaseResult result;
    result.shape_index = shape_index;
    result.hidden_shape = hidden;
    result.shapes = shapes;
    result.dtype = dtype;
    result.verdict = answer.verdict;
    result.reason = answer.reason;
    report_.cases.push_back(std::move(result));
    return Status::ok();
  }

  void serve_compile(const json& request) {
    CompileRecord record;
    auto built = cache_.build(request, &record);
    report_.compiles.push_back(record);
    json reply = built ? json{{"op", "compiled"}, {"so", built->string()}} : json{{"op", "compile-failed"}, {"message", built.error()}};
    (void)worker_.send(reply);
  }

  // Writes the inputs into the arena, asks for one forward call, and returns the output copy.
  // probe: the worker does everything around a call but the call (the judge's overhead estimate).
  Answer call_candidate(const std::vector<at::Tensor>& inputs, std::vector<TensorSlot>& slots, at::Tensor& output,
                        bool probe = false) {
    std::size_t end = 0;
    slots = layout_slots(inputs, &end);
    json slot_list = json::array();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      auto view = slot_view(arena_, slots[i]);
      if (!view) {
        Answer answer;
        answer.verdict = Verdict::harness_error;
        answer.reason = {"arena-too-small", "the inputs do not fit the arena (a limit of the harness; rerun with a larger --arena-mib): " + view.error()};
        return answer;
      }
      view->copy_(inputs[i]);
      slot_list.push_back(slot_to_json(slots[i]));
    }
    if (arena_.is_cuda()) py::module_::import("kgate_judge").attr("synchronize")(options_.device);
    // Poison about as much free memory as the output will need (the inputs' size on CPU, where
    // poisoning pins glibc's heap); on CUDA the caching allocator's free blocks, generously.
    const std::size_t poison = options_.device == "cpu" ? std::max(end, std::size_t{4096}) : std::size_t{256} << 20;
    const auto sent = std::chrono::steady_clock::now();
    if (Status s = worker_.send({{"op", "call"}, {"inputs", slot_list}, {"output_offset", end}, {"poison_bytes", poison},
                                 {"probe", probe}}); !s)
      return closed_answer("forward");
    Answer answer = await("result", "forward", options_.call_timeout_ms);
    answer.round_trip_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    if (!answer.ok || probe) return answer;
    auto slot = slot_from_json(answer.body.value("output", json::object()));
    auto view = slot ? slot_view(arena_, *slot) : Result<at::Tensor>(Error{slot.error()});
    if (!view) {
      answer.ok = false;
      answer.verdict = Verdict::fail;
      answer.reason = {"shape-mismatch", "output slot: " + view.error()};
      return answer;
    }
    output = view->clone();
    return answer;
  }

  // Sets the shape globals, builds the reference here and ModelNew in the worker from the same seed
  // and init inputs. An answer with Verdict::error is the judge's or the reference's problem.
  Answer build_models(py::module_& helper, py::object& reference, const ShapeSet& shapes, DType dtype, py::object& model) {
    const std::string dtype_text(dtype_name(dtype));
    json shape_json = json::object();
    for (const auto& [name, value] : shapes) shape_json[name] = value;
    try {
      helper.attr("set_shape_globals")(reference, shape_json.dump());
      const std::uint64_t init_seed = secret_u64() >> 1;
      py::tuple built = helper.attr("build_reference")(reference, init_seed, dtype_text, options_.device);
      model = built[0];
      const std::string init_inputs = built[1].cast<std::string>();
      if (Status s = worker_.send({{"op", "build"}, {"init_seed", init_seed}, {"init_inputs", init_inputs}, {"dtype", dtype_text}}); !s)
        return closed_answer("build");
    } catch (const py::error_already_set& e) {
      Answer failed;
      const std::string text = embed::error_text(e);
      failed.verdict = out_of_memory(text) ? Verdict::harness_error : Verdict::error;
      failed.reason = {out_of_memory(text) ? "out-of-memory" : "error",
                       "the reference " + task_.reference.string() + " failed to build: " + text};
      return failed;
    }
    Answer built = await("built", "ModelNew construction", options_.call_timeout_ms);
    if (!built.ok) return built;
    if (auto pinned = check_l2_pinning(l2_from(built.body), "ModelNew's constructor")) {
      Answer failed;
      failed.verdict = Verdict::fail;
      failed.reason = *pinned;
      return failed;
    }
    return built;
  }

  // The input contract for the shape set whose globals build_models() just set: the manifest's, or for
  // a task without one what kContractDraws get_inputs() draws under secret seeds keep (read once per
  // shape set). The first shape set's goes into the report.
  Status settle_contract(py::module_& helper, py::object& reference, const ShapeSet& shapes, DType dtype) {
    if (!task_.bare_kernelbench) {
      specs_ = &task_.inputs;
    } else if (auto known = contracts_.find(shapes); known != contracts_.end()) {
      specs_ = &known->second;
    } else {
      std::vector<std::vector<at::Tensor>> draws;
      try {
        for (int i = 0; i < kContractDraws; ++i) draws.push_back(draw_structure(helper, reference, dtype));
      } catch (const py::error_already_set& e) {
        return Error{"the reference's get_inputs failed: " + embed::error_text(e)};
      }
      specs_ = &contracts_.emplace(shapes, infer_input_specs(draws)).first->second;
    }
    if (report_.inputs.empty()) report_.inputs = *specs_;
    return Status::ok();
  }

  // One get_inputs() call under a secret seed, on the run's device, floating tensors in the run's dtype.
  std::vector<at::Tensor> draw_structure(py::module_& helper, py::object& reference, DType dtype) {
    py::list structure_list = helper.attr("input_structure")(reference, secret_u64() >> 1, std::string(dtype_name(dtype)), options_.device);
    std::vector<at::Tensor> structure;
    for (auto item : structure_list) structure.push_back(embed::unwrap(item));
    return structure;
  }

  // Fresh inputs: get_inputs()'s structure under a secret seed, values drawn from the distribution.
  Result<std::vector<at::Tensor>> make_inputs(py::module_& helper, py::object& reference, DType dtype, Distribution distribution) {
    try {
      const std::vector<at::Tensor> structure = draw_structure(helper, reference, dtype);
      InputOptions input_options = options_.input_options;
      input_options.special_values = task_.special_values;
      return fill_inputs(structure, *specs_, distribution, secret_u64(), input_options);
    } catch (const py::error_already_set& e) {
      return Error{"the reference's get_inputs failed: " + embed::error_text(e)};
    }
  }

  Result<bool> run_case(py::module_& helper, py::object& reference, py::object& model, CaseResult& result,
                        bool check_determinism, CallMeasure* measure = nullptr) {
    std::vector<at::Tensor> inputs;
    at::Tensor expected;
    result.reference_first = (secret_u64() & 1) != 0;
    std::string reference_oom;  // the reference ran out of GPU memory: the harness's limit, not a verdict
    const auto run_reference = [&]() -> Status {
      try {
        py::list clones;
        for (const auto& t : inputs) clones.append(embed::wrap(t.clone()));
        if (!measure) {
          expected = embed::unwrap(helper.attr("run_reference")(model, clones));
          return Status::ok();
        }
        auto timed = time_reference(helper, model, clones, expected);
        if (!timed) return Error{timed.error()};
        measure->reference = *timed;
      } catch (const py::error_already_set& e) {
        const std::string text = embed::error_text(e);
        if (!out_of_memory(text)) return Error{"the reference failed: " + text};
        reference_oom = text;
      }
      return Status::ok();
    };
    const auto reference_ran_out = [&]() {
      result.verdict = Verdict::harness_error;
      result.reason = Reason{"out-of-memory", "the reference ran out of GPU memory: " + reference_oom};
      return true;
    };
    {
      auto made = make_inputs(helper, reference, result.dtype, result.distribution);
      if (!made) return Error{made.error()};
      inputs = std::move(*made);
    }
    std::vector<at::Tensor> originals;
    for (const auto& t : inputs) originals.push_back(t.clone());

    if (result.reference_first) {
      if (Status s = run_reference(); !s) return Error{s.message()};
      if (!reference_oom.empty()) return reference_ran_out();
    }
    std::vector<TensorSlot> slots;
    at::Tensor output;
    Answer answer = call_candidate(inputs, slots, output);
    if (!answer.ok) return ended_by(result, answer);
    const json measured = answer.body.value("measured", json::object());
    if (measure) {
      measure->round_trip_s = answer.round_trip_s;
      measure->candidate = timed_call_from(measured);
    }
    if (!result.reference_first) {
      if (Status s = run_reference(); !s) return Error{s.message()};
      if (!reference_oom.empty()) return reference_ran_out();
    }

    const auto fail = [&](Reason reason) {
      result.verdict = Verdict::fail;
      result.reason = std::move(reason);
      return true;
    };
    const json& body = answer.body;
    const std::string out_device = body.value("output_device", std::string());
    if (out_device.rfind(options_.device, 0) != 0)
      return fail({"device-mismatch", "the output is on " + out_device + ", the run is on " + options_.device});
    const json facts_json = body.value("facts", json::object());
    OutputFacts facts{};
    facts.exact_tensor_type = facts_json.value("exact_tensor_type", false);
    facts.overridden_methods = facts_json.value("overridden_methods", std::vector<std::string>{});
    facts.has_torch_function_override = facts_json.value("has_torch_function_override", true);
    facts.is_contiguous = facts_json.value("is_contiguous", false);
    facts.owns_storage_exactly = facts_json.value("owns_storage_exactly", false);
    facts.storage = {facts_json.value("storage_begin", std::uintptr_t{0}), facts_json.value("storage_end", std::uintptr_t{0})};
    // Aliasing first: a view of an input is also not plain, and aliasing is the more precise reason.
    std::vector<StorageRange> input_ranges;
    for (const auto& r : body.value("input_ranges", json::array()))
      input_ranges.push_back({r.at(0).get<std::uintptr_t>(), r.at(1).get<std::uintptr_t>()});
    if (auto reason = check_aliasing(facts.storage, input_ranges)) return fail(*reason);
    if (auto reason = check_output_plain(facts)) return fail(*reason);
    if (!facts.is_contiguous) return fail({"not-contiguous", "the output is not contiguous"});
    std::vector<at::Tensor> after;
    for (const auto& slot : slots) after.push_back(*slot_view(arena_, slot));  // read only, before the next call
    if (auto reason = check_inputs_unchanged(originals, after)) return fail(*reason);
    if (auto reason = check_poison_read(output)) return fail(*reason);
    // The kernels the call ran are evidence about how it computed, whatever its output: a forbidden
    // library kernel or no kernel of its own is the more precise reason than a numerical mismatch.
    std::optional<Trace> call_trace;
    if (measured.contains("trace")) {
      auto trace = trace_from_json(measured["trace"]);
      if (!trace) return fail({"malformed-trace", trace.error()});
      if (auto reason = check_kernels_ran(*trace, kernels_)) return fail(*reason);
      if (measured.contains("stream") && measured["stream"].is_number_unsigned())
        if (auto reason = check_unjoined_work(*trace, measured["stream"].get<std::uint32_t>())) return fail(*reason);
      // Library kernels per call; the own-kernel share is judged on the timed series (a small shape's
      // share says little).
      TaskPolicy library_only = task_.policy;
      library_only.min_own_kernel_share.reset();
      if (auto reason = check_kernel_policy(library_only, summarize_kernels(*trace, kernels_), 1.0)) return fail(*reason);
      call_trace = std::move(*trace);
    }
    const Tolerance tolerance = result.distribution == Distribution::huge
                                    ? scaled_to_output(task_.tolerance_for(result.dtype), expected)
                                    : task_.tolerance_for(result.dtype);
    CompareResult compared = compare_outputs(expected, output, tolerance, task_.contract, task_.quantization);
    // A reference in fp16/bf16 rounds after every op; an honest kernel that keeps fp32 registers and
    // rounds once can be further from it than the tolerance where the arithmetic cancels (seen on an
    // H100: a degree-7 Horner polynomial, |error| 24 in the fp16 reference). Such an output is judged
    // again against the reference run in fp32 from the same (exactly widened) inputs and parameters,
    // rounded once to the run's dtype; it passes if either comparison does.
    if (!compared.ok && (compared.reason_id == "mismatch" || compared.reason_id == "norm-mismatch") &&
        (result.dtype == DType::fp16 || result.dtype == DType::bf16)) {
      try {
        py::list widened;
        for (const auto& t : originals) widened.append(embed::wrap(t.clone()));
        at::Tensor precise = embed::unwrap(helper.attr("run_reference_fp32")(model, widened)).to(expected.scalar_type());
        const Tolerance wide_tolerance = result.distribution == Distribution::huge
                                             ? scaled_to_output(task_.tolerance_for(result.dtype), precise)
                                             : task_.tolerance_for(result.dtype);
        CompareResult again = compare_outputs(precise, output, wide_tolerance, task_.contract, task_.quantization);
        if (again.ok) {
          compared = std::move(again);
          result.matched_fp32_reference = true;
        }
      } catch (const py::error_already_set& e) {
        return Error{"the reference failed in fp32: " + embed::error_text(e)};
      }
    }
    result.max_abs_err = compared.max_abs_err;
    result.max_rel_err = compared.max_rel_err;
    result.norm_err_ratio = compared.norm_err_ratio;
    result.mismatches = compared.mismatches;
    if (!compared.ok) {
      // The previous call's output again, for new inputs: a cached result (T11-T13), not arithmetic.
      if (previous_output_.defined() && previous_output_.sizes() == output.sizes() &&
          previous_output_.scalar_type() == output.scalar_type() && at::equal(previous_output_, output))
        return fail({"stale-output", "the output equals the previous call's output for different inputs (" + compared.message + ")"});
      return fail({compared.reason_id, compared.message});
    }
    previous_output_ = output;
    // The rest of the call's GPU evidence: nothing is pinned in L2, and no work escaped the current
    // stream. Only a right output gets this far.
    if (call_trace && measure) measure->trace = std::move(*call_trace);
    if (auto reason = check_l2_pinning(l2_from(measured), "the call")) return fail(*reason);
    if (auto timed = timed_call_from(measured)) {
      if (auto reason = check_side_stream(*timed)) {
        // Confirmed on a second call with the same inputs: a side stream left running is there on every
        // call, while a busy host (other runs compiling on the machine) can delay the worker's thread
        // between its two marks once (seen on an H200 with four runs at once: three honest candidates).
        std::vector<TensorSlot> again_slots;
        at::Tensor again_output;
        Answer again = call_candidate(originals, again_slots, again_output);
        if (!again.ok) return ended_by(result, again);
        const auto second = timed_call_from(again.body.value("measured", json::object()));
        if (!second || check_side_stream(*second)) return fail(*reason);
      }
    }
    if (check_determinism) {
      result.determinism_checked = true;
      at::Tensor second;
      Answer again = call_candidate(originals, slots, second);
      if (!again.ok) return ended_by(result, again);
      if (auto reason = check_deterministic(output, second)) return fail(*reason);
    }
    return true;
  }

  const Task& task_;
  const RunOptions& options_;
  RunReport& report_;
  WorkerProcess& worker_;
  CompileCache& cache_;
  at::Tensor arena_;
  std::string cuda_arena_handle_;
  at::Tensor previous_output_;  // the last passing output, for the stale-output check
  std::vector<std::string> kernels_;  // the submission's own kernel names (static facts)
  std::map<ShapeSet, std::vector<InputSpec>> contracts_;  // inferred input contracts per shape set
  const std::vector<InputSpec>* specs_ = &task_.inputs;  // the contract of the shape set being run
  std::size_t expected_output_bytes_ = 0;                 // the reference's largest output (0: unknown)

 public:
  void set_expected_output_bytes(std::size_t bytes) { expected_output_bytes_ = bytes; }
};

// The kernels the submission defines (CUDA __global__ and @triton.jit functions), from the static gate's
// facts (the tree-sitter engines: what the judge trusts does not depend on the optional Clang part).
std::vector<std::string> candidate_kernel_names(const std::filesystem::path& submission) {
  AnalysisContext context;
  context.cpp_engine = "tree-sitter";
  return analyze_file(submission.string(), context).kernels;
}

// One judge at a time runs cases and times on a GPU: another process's kernels would stretch this one's
// events (time-slicing between contexts) and make honest calls look like side-stream work. Start-up,
// compilation and imports of parallel runs still overlap. An flock on a file per device, released with
// the descriptor (also when kgate dies).
// The same kind of lock, shared, is held by every CUDA run for its whole life ("presence"); the rerun of
// a run that ran out of memory takes it exclusively, so it has the GPU to itself.
class GpuLock {
 public:
  explicit GpuLock(const std::string& device, const std::string& kind = "", int operation = LOCK_EX) {
    std::string name = "kgate-gpu-" + (kind.empty() ? "" : kind + "-");
    for (char c : device) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    const auto path = std::filesystem::temp_directory_path() / (name + ".lock");
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ >= 0) ::flock(fd_, operation);
  }
  ~GpuLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

 private:
  int fd_ = -1;
};

// The judge's own GPU memory (the arena, its copies of inputs and outputs, the comparison's) ran out:
// the harness's limit, never the candidate's fault.
CaseResult judge_out_of_memory(const std::string& text) {
  CaseResult failed;
  failed.verdict = Verdict::harness_error;
  failed.reason = Reason{"out-of-memory", "the judge ran out of GPU memory: " + text.substr(0, text.find('\n'))};
  return failed;
}

void summarise(RunReport& report) {
  std::set<std::string> seen;
  for (const auto& c : report.cases) {
    report.verdict = std::max(report.verdict, c.verdict);
    if (c.reason && seen.insert(c.reason->id).second) report.reasons.push_back(*c.reason);
  }
}

// A task without a manifest gets shape sets from its reference (kgate_judge.generalization_shapes): the
// public set names the shape symbols' own values, the hidden ones are those halved and made odd, kept
// where the reference runs on them. A kernel hard-coded to the public shape then fails a hidden one.
Task with_generalization_shapes(const Task& task, py::module_& helper, py::object& reference, RunReport& report) {
  Task derived = task;
  const json sets = json::parse(helper.attr("generalization_shapes")(reference).cast<std::string>());
  ShapeSet symbols;
  for (const auto& [name, value] : sets.at("public").items()) symbols[name] = value.get<std::int64_t>();
  if (symbols.empty()) return derived;
  derived.public_shapes = {symbols};
  derived.hidden_shapes.clear();
  for (const auto& set : sets.at("hidden")) {
    ShapeSet hidden;
    for (const auto& [name, value] : set.items()) hidden[name] = value.get<std::int64_t>();
    derived.hidden_shapes.push_back(hidden);
  }
  report.derived_hidden_shapes = derived.hidden_shapes;
  return derived;
}

Result<RunReport> judge_once(const Task& given_task, const std::filesystem::path& submission, const RunOptions& options) {
  const Task* task_ptr = &given_task;
  std::optional<Task> derived_task;
  const auto start = std::chrono::steady_clock::now();
  RunReport report;
  report.task = given_task.name;
  report.category = given_task.category;
  report.submission = submission.string();
  report.device = options.device;
  if (Status s = embed::start_python(); !s) return Error{s.message()};
  RunDirectory run_dir;
  if (!run_dir.ok()) return Error{"cannot create a run directory under " + std::filesystem::temp_directory_path().string()};
  std::error_code ec;
  std::filesystem::create_directory(run_dir.private_dir(), ec);
  std::filesystem::permissions(run_dir.private_dir(), std::filesystem::perms::owner_all, ec);

  try {
    py::module_ helper = embed::helper("kgate_judge");
    std::string module_name = "kgate_reference_";
    for (char c : given_task.name) module_name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    py::object reference;
    try {
      reference = helper.attr("load_module")(given_task.reference.string(), module_name);
    } catch (const py::error_already_set& e) {
      return Error{"cannot load the reference " + given_task.reference.string() + ": " + embed::error_text(e)};
    }

    std::optional<MemfdArena> memfd;
    at::Tensor arena;
    std::string cuda_handle;
    if (given_task.bare_kernelbench && options.hidden_shapes) {
      try {
        derived_task = with_generalization_shapes(given_task, helper, reference, report);
        task_ptr = &*derived_task;
      } catch (const py::error_already_set& e) {
        return Error{"deriving shape sets from the reference " + given_task.reference.string() + ": " + embed::error_text(e)};
      }
    }
    const Task& task = *task_ptr;
    const ArenaSize sized = arena_size_for(task, helper, reference);
    if (options.device == "cpu") {
      // A memfd's pages exist only once written: 1 GiB costs nothing until used.
      auto created = MemfdArena::create(options.arena_bytes ? options.arena_bytes : std::max(std::size_t{1} << 30, sized.bytes));
      if (!created) return Error{created.error()};
      memfd.emplace(std::move(*created));
      arena = memfd->bytes();
    } else {
      // CUDA memory is real at once, and runs share the GPU: size it by the task, and wait for the
      // memory the run needs (the arena, the judge's copies of inputs and outputs, the worker's) to be
      // free before taking it. Past the wait the run goes ahead; running out is then a harness error.
      const std::size_t arena_bytes = options.arena_bytes ? options.arena_bytes : sized.bytes;
      if (arena_bytes > 0) (void)helper.attr("wait_for_memory")(3 * arena_bytes, options.memory_wait_s);
      try {
        py::tuple made = helper.attr("make_cuda_arena")(arena_bytes);
        arena = embed::unwrap(made[0]);
        cuda_handle = made[1].cast<std::string>();
      } catch (const py::error_already_set& e) {
        const std::string text = embed::error_text(e);
        if (!out_of_memory(text)) throw;
        CaseResult failed;
        failed.verdict = Verdict::harness_error;
        failed.reason = Reason{"out-of-memory", "the arena of " + std::to_string(arena_bytes >> 20) + " MiB: " + text};
        report.cases.push_back(std::move(failed));
        summarise(report);
        return report;
      }
    }

    WorkerSpawn spawn;
    spawn.executable = options.worker_executable;
    spawn.private_dir = run_dir.private_dir();
    spawn.log = run_dir.log();
    spawn.arena_fd = memfd ? memfd->fd() : -1;
    spawn.arena_bytes = static_cast<std::size_t>(arena.numel());
    spawn.sandbox = options.sandbox;
    spawn.device = options.device;
    spawn.limits.cpu_seconds = static_cast<std::uint64_t>(options.start_timeout_ms / 1000 + 16 * options.call_timeout_ms / 1000);
    spawn.limits.address_space = options.device == "cpu" ? options.cpu_address_space : 0;
    if (options.device != "cpu") spawn.limits.processes = 0;  // the CUDA driver's threads; root is exempt anyway
    auto worker = WorkerProcess::spawn(spawn);
    if (!worker) return Error{"cannot start the worker " + options.worker_executable.string() + ": " + worker.error()};
    CompileCache cache(options.cache_dir.empty() ? default_compile_cache_dir() : options.cache_dir);
    Judge judge(task, options, report, *worker, cache, arena);
    judge.set_expected_output_bytes(sized.output_bytes);
    judge.set_cuda_arena_handle(cuda_handle);
    judge.set_candidate_kernels(candidate_kernel_names(submission));
    Answer loaded = judge.start_and_load(submission);
    if (!loaded.ok) {
      if (report.sandbox.mode == "none" && loaded.reason.message.find("sandbox") != std::string::npos)
        return Error{"the worker could not set up its sandbox: " + loaded.reason.message};
      CaseResult failed;
      failed.verdict = loaded.verdict;
      failed.reason = loaded.reason;
      report.cases.push_back(failed);
    } else {
      std::optional<GpuLock> gpu_lock;
      if (options.device != "cpu") gpu_lock.emplace(options.device);
      if (Status s = judge.run_cases(helper, reference); !s) return Error{s.message()};
      if (std::all_of(report.cases.begin(), report.cases.end(), [](const CaseResult& c) { return c.verdict == Verdict::pass; }))
        if (Status t = judge.run_timing(helper, reference); !t) return Error{t.message()};
    }
    if (worker->alive()) {
      (void)worker->send({{"op", "exit"}});
      report.worker_end = worker->reap(5000);
    }
    report.worker_log_tail = tail_of(run_dir.log(), 4000);
  } catch (const py::error_already_set& e) {
    const std::string text = embed::error_text(e);
    if (!out_of_memory(text)) return Error{"judge: " + text};
    report.cases.push_back(judge_out_of_memory(text));
  } catch (const std::exception& e) {
    if (!out_of_memory(e.what())) return Error{std::string("judge: ") + e.what()};
    report.cases.push_back(judge_out_of_memory(e.what()));
  }
  summarise(report);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace

Result<RunReport> judge_submission(const Task& task, const std::filesystem::path& submission, const RunOptions& options) {
  const bool cuda = options.device != "cpu";
  std::optional<GpuLock> presence;
  if (cuda) presence.emplace(options.device, "presence", options.alone ? LOCK_EX : LOCK_SH);
  auto report = judge_once(task, submission, options);
  if (!report) return report;
  report->ran_alone = options.alone;
  const bool ran_out = std::any_of(report->reasons.begin(), report->reasons.end(), [](const Reason& r) { return r.id == "out-of-memory"; });
  if (!cuda || options.alone || report->verdict != Verdict::harness_error || !ran_out) return report;
  presence.reset();
  RunOptions alone = options;
  alone.alone = true;
  return judge_submission(task, submission, alone);
}

}  // namespace kgate::runtime
