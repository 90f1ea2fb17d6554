// The judge's session with one worker (internal to runtime/judge*.cpp): the worker protocol
// (judge_calls.cpp), the case loop and its probes (judge_cases.cpp), and the timing phase
// (judge_timing.cpp). judge.cpp sets a session up and runs it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include "analyzers/core/status.h"
#include "runtime/calibration.h"
#include "runtime/compare.h"
#include "runtime/compile_cache.h"
#include "runtime/judge.h"
#include "runtime/shm_arena.h"
#include "runtime/gpu_evidence.h"
#include "runtime/input_contract.h"
#include "runtime/trace.h"
#include "runtime/worker_process.h"
#if KGATE_HAVE_CUDA
#include "runtime/cuda/gpu_timer.h"
#endif

namespace kgate::runtime::detail {

namespace py = pybind11;
using nlohmann::json;

// Seeds come from the kernel's generator and live only in this process's memory.
std::uint64_t secret_u64();
std::string hex32(std::uint64_t v);
bool out_of_memory(const std::string& text);
// Whether the judge's own interpreter finds the top-level package of a module (a worker's ModuleNotFoundError
// is the environment's limit only where the judge lacks the module too).
bool judge_can_import(const std::string& module);

// What came back from the worker for one request: the answer, or how the worker failed.
struct Answer {
  bool ok = false;
  json body;
  double round_trip_s = 0;  // the judge's own clock from the request to the answer
  Verdict verdict = Verdict::pass;
  Reason reason;
};

// A case that a worker answer other than a result ended (crash, timeout, violation, harness limit).
bool ended_by(CaseResult& result, const Answer& answer);

// What one call of the timing phase measured: the candidate's call as the worker timed it, the judge's
// round trip for it, the reference's call as the judge timed it, and the kernels CUPTI saw.
struct CallMeasure {
  std::optional<TimedCall> candidate;
  std::optional<TimedCall> reference;
  double round_trip_s = 0;
  Trace trace;
};

// Books a run's wall time into RunReport::phases: lap(name) adds the time since the previous lap, less
// what set_aside() booked meanwhile (compiles served while the judge waited), to the phase `name`.
class PhaseClock {
 public:
  explicit PhaseClock(std::vector<Phase>& phases);
  void lap(const std::string& name);
  void set_aside(const std::string& name, double seconds);

 private:
  void add(const std::string& name, double seconds);
  std::vector<Phase>& phases_;
  std::chrono::steady_clock::time_point last_;
  double aside_ = 0;
};

L2Pinning l2_from(const json& body);
std::optional<TimedCall> timed_call_from(const json& measured);

class Judge {
 public:
  Judge(const Task& task, const RunOptions& options, RunReport& report, WorkerProcess& worker, CompileCache& cache,
        const at::Tensor& arena)
      : task_(task), options_(options), report_(report), worker_(worker), cache_(cache), arena_(arena) {}

  // Waits for `expected`, serving compile requests meanwhile. Any other ending is a verdict.
  Answer await(const std::string& expected, const std::string& what, int timeout_ms);
  Answer start_and_load(const std::filesystem::path& submission);
  // Runs every case; stops at the first case that ends the worker.
  Status run_cases(py::module_& helper, py::object& reference);
  // The timing phase (GPU runs whose every case passed): the overhead of an empty call, a random number
  // of warm-up calls (T9), then options_.timed_calls calls on timing_shape() and the first dtype, each
  // with fresh inputs and fully checked, the reference timed on the same inputs here.
  Status run_timing(py::module_& helper, py::object& reference);

  void set_cuda_arena_handle(std::string handle) { cuda_arena_handle_ = std::move(handle); }
  void set_candidate_kernels(std::vector<std::string> names) { kernels_ = std::move(names); }
  // How the worker enters the submission ("model": ModelNew, else Model; "custom_kernel": GPU MODE;
  // "output-argument": solve or solution, writing the output buffer it is given), and
  // the directories the harness puts beside it (a GPU MODE problem's staged task.py and utils.py).
  void set_candidate_entry(std::string entry, std::vector<std::string> paths) {
    entry_ = std::move(entry);
    entry_paths_ = std::move(paths);
  }
  void set_expected_output_bytes(std::size_t bytes) { expected_output_bytes_ = bytes; }
  void set_clock(PhaseClock* clock) { clock_ = clock; }

 private:
  static constexpr int kProbeCalls = 10;
  static constexpr int kMinWarmup = 3;
  static constexpr int kMaxWarmup = 12;

  // judge_calls.cpp: the worker protocol.
  Answer arena_answer(const json& body);
  Answer closed_answer(const std::string& what);
  void serve_compile(const json& request);
  Answer call_candidate(const std::vector<at::Tensor>& inputs, std::vector<TensorSlot>& slots, Outputs& outputs,
                        bool probe = false);
  Answer build_models(py::module_& helper, py::object& reference, const ShapeSet& shapes, DType dtype,
                      py::object& model);

  // judge_cases.cpp: inputs, one case, and the input-dependence probe.
  Outputs reference_output(py::module_& helper, py::object& model, const std::vector<at::Tensor>& inputs);
  Result<bool> probe_input_dependence(py::module_& helper, py::object& reference, py::object& model,
                                      CaseResult& result);
  Status finish_with(const Answer& answer, std::size_t shape_index, bool hidden, const ShapeSet& shapes, DType dtype);
  Status settle_contract(py::module_& helper, py::object& reference, const ShapeSet& shapes, DType dtype);
  // Whether the run's distributions leave the task's domain, once per run (check_domain.cpp).
  void check_domain(py::module_& helper, py::object& reference, py::object& model, DType dtype);
  std::vector<at::Tensor> draw_structure(py::module_& helper, py::object& reference, DType dtype);
  Result<std::vector<at::Tensor>> make_inputs(py::module_& helper, py::object& reference, DType dtype,
                                              Distribution distribution);
  Result<bool> run_case(py::module_& helper, py::object& reference, py::object& model, CaseResult& result,
                        bool check_determinism, CallMeasure* measure = nullptr);
  // Where the task has a checker of its own, its word on the output: `compared` becomes a pass it
  // accepts (recorded on the case) or a failure it rejects (the judge's own reason where it had one).
  void judge_by_task_checker(py::module_& helper, py::object& reference, py::object& model,
                             const std::vector<at::Tensor>& inputs, const std::string& structure,
                             const Outputs& outputs, CompareResult& compared, CaseResult& result);

  // judge_timing.cpp.
  ShapeSet timing_shape(DType dtype) const;
  static std::string compute_peak_for(DType dtype, const std::string& category);
  std::optional<PeaksForRun> device_peaks_for_run(py::module_& helper, const std::string& compute_peak);
  Result<TimedCall> time_reference(py::module_& helper, py::object& model, py::list& clones, Outputs& expected);
#if KGATE_HAVE_CUDA
  Result<TimedSeries> time_compiled_reference(py::module_& helper, py::object& reference, py::object& model,
                                              DType dtype);
  std::unique_ptr<cuda::GpuTimer> reference_timer_;
#endif

  const Task& task_;
  const RunOptions& options_;
  RunReport& report_;
  WorkerProcess& worker_;
  CompileCache& cache_;
  at::Tensor arena_;
  std::string cuda_arena_handle_;
  std::string entry_ = "model";
  std::vector<std::string> entry_paths_;
  Outputs previous_output_;                               // the last passing output, for the stale-output check
  std::vector<std::string> kernels_;                      // the submission's own kernel names (static facts)
  std::map<ShapeSet, std::vector<InputSpec>> contracts_;  // inferred input contracts per shape set
  const std::vector<InputSpec>* specs_ = &task_.inputs;   // the contract of the shape set being run
  std::size_t expected_output_bytes_ = 0;                 // the reference's largest output (0: unknown)
  PhaseClock* clock_ = nullptr;
  std::string not_copied_;  // why the last build's redrawn parameters did not reach the candidate (empty: they did)
  // The distributions the cases run (options_.distributions less those that leave the task's domain,
  // then `task`), and the one the input probe and the timing phase draw from.
  std::vector<Distribution> distributions_;
  bool domain_checked_ = false;
  // Whether the task judges outputs with a check_implementation of its own (a GPU MODE checker that is
  // not make_match_reference); read once per run (judge_cases.cpp, judge_by_task_checker).
  std::optional<bool> own_checker_;
  Distribution base_distribution_ = Distribution::normal;
  void lap(const std::string& phase) {
    if (clock_) clock_->lap(phase);
  }
};

}  // namespace kgate::runtime::detail
