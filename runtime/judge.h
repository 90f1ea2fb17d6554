// The judge (trusted, in the kgate process): runs the task's reference and one sandboxed worker per
// submission over secret seeds x distributions x shape sets x dtypes, checks every call with the
// runtime defences, and gives the verdict.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"
#include "runtime/compile_cache.h"
#include "runtime/inputs.h"
#include "runtime/sandbox.h"
#include "runtime/task.h"
#include "runtime/timing.h"
#include "runtime/verdict.h"

namespace kgate::runtime {

// How much a run checks. full: the defaults below. quick, for RL reward loops and pre-commit hooks: one
// seed, normal and outlier inputs, the public shape sets and one hidden set (the one with the most odd
// sizes: tails are where a public-shape kernel breaks), and 10 timed calls. Explicit options win.
enum class RunProfile { full, quick };
std::optional<RunProfile> parse_run_profile(std::string_view name);
std::string_view run_profile_name(RunProfile);

struct RunOptions {
  RunProfile profile = RunProfile::full;
  std::string device = "cpu";               // "cpu" or "cuda"
  int seeds = 0;                            // 0: the profile's (full: 5 on cuda, 1 on cpu; quick: 1)
  std::vector<Distribution> distributions;  // empty: the profile's (full: all; quick: normal, outlier)
  bool hidden_shapes = true;
  int start_timeout_ms = 120000;  // worker start-up and candidate import (compilation is not counted)
  int call_timeout_ms = 60000;    // one build or forward call
  bool sandbox = true;
  std::filesystem::path worker_executable;
  std::filesystem::path cache_dir;  // empty: default_compile_cache_dir()
  InputOptions input_options;
  // The input/output arena. 0: 1 GiB on CPU (a sparse memfd: only touched pages cost memory), on CUDA
  // 8 GiB or a quarter of the free GPU memory, the smaller (a real allocation, shared through CUDA IPC).
  std::size_t arena_bytes = 0;
  // GPU runs (built with the CUDA part) whose every case passed are then timed: a random number of
  // warm-up calls (T9), then `timed_calls` calls on the first public shape set and the task's first
  // dtype, each with fresh inputs and checked, against eager PyTorch on the same inputs. 0: no timing;
  // -1: the profile's (full 30, quick 10).
  int timed_calls = -1;
  bool compare_compile = false;  // also time torch.compile of the reference
  // The reference's floating parameters and its norms' running statistics are redrawn under a secret seed
  // after construction, and the candidate's matching ones get the same values (kgate_models.py).
  bool redraw_parameters = true;
  std::uint64_t cpu_address_space = std::uint64_t{32} << 30;  // RLIMIT_AS of CPU workers
  // CUDA runs wait up to this long for the GPU memory they need (other runs on the GPU finishing).
  int memory_wait_s = 600;
  // A CUDA run that ran out of memory is run once more with the GPU to itself (every other kgate run on
  // it finished, none started meanwhile, and the first attempt's memory given back); an out-of-memory
  // there is the candidate's (crashed) when the candidate ran out with the memory the run waited for
  // free, and a harness error when the reference did or that memory never came. Set for that second run.
  bool alone = false;
};

struct CaseResult {
  std::size_t shape_index = 0;
  bool hidden_shape = false;
  ShapeSet shapes;
  DType dtype = DType::fp32;
  int seed_index = 0;
  Distribution distribution = Distribution::normal;
  bool reference_first = false;
  bool determinism_checked = false;
  Verdict verdict = Verdict::pass;
  std::optional<Reason> reason;
  bool timed = false;  // a call of the timing phase (warm-up included)
  double max_abs_err = 0;
  double max_rel_err = 0;
  double norm_err_ratio = 0;
  std::int64_t mismatches = 0;
  // fp16/bf16 runs: the output matched only the reference recomputed in fp32 from the same inputs and
  // parameters (rounded once to the run's dtype), not the reference's own reduced-precision arithmetic.
  bool matched_fp32_reference = false;
  // The output differed from the reference's beyond tolerance and the task's own check_implementation
  // accepted it (GPU MODE's eigh: eigenvectors are right up to their sign).
  bool accepted_by_task_checker = false;
};

// Wall time of one phase of a run.
struct Phase {
  std::string name;
  double seconds = 0;
};

// A distribution the run could not draw without breaking an input's contract, and why.
struct SkippedDistribution {
  Distribution distribution = Distribution::normal;
  std::string reason;
};

struct RunReport {
  std::string profile;  // run_profile_name()
  std::string task;
  std::string category;  // the task's (tasks/<Category>/<name>), for per-category speedup tables
  std::string submission;
  std::string device;
  Verdict verdict = Verdict::pass;
  std::vector<Reason> reasons;  // one per distinct reason id, first occurrence
  std::vector<CaseResult> cases;
  // The input contract the cases kept (the first shape set's): the manifest's inputs, or for a task
  // without a manifest what get_inputs() draws showed (runtime/input_contract.h).
  std::vector<InputSpec> inputs;
  std::vector<SkippedDistribution> skipped;
  // A task without a manifest: the hidden shape sets derived from its reference's integer globals.
  std::vector<ShapeSet> derived_hidden_shapes;
  std::string derived_from;  // where they came from: "the reference's globals", "task.yml tests"
  // What the input-dependence probe learned about the reference (an input its output ignores, an output
  // that zeros would match): facts about the task, not verdicts on the submission.
  std::vector<std::string> reference_notes;
  // Whether the parameters were redrawn under the secret seed ("redrawn ...: N tensors"), or why not
  // (the candidate's parameters match the reference's neither by name nor by order); empty: nothing to redraw.
  std::string parameter_redraw;
  SandboxState sandbox;
  std::vector<CompileRecord> compiles;
  // The worker started ahead (kgate serve's spares): "used", "did not fit the run's options", "had ended",
  // or "none" (the run started its own, as kgate run does).
  std::string worker_ahead = "none";
  std::string worker_end;              // how the worker ended ("exited with code 0", "killed by signal 9 (SIGKILL)")
  std::string worker_log_tail;         // its stdout/stderr, for people
  std::optional<TimingReport> timing;  // GPU runs whose every case passed: speed, kernels, roofline
  bool ran_alone = false;              // the rerun, with the GPU to itself, of a run that ran out of memory
  double seconds = 0;
  // The judge's wall clock per phase, in order; they add up to `seconds` (compiles served while the
  // worker imported or ran are booked under "compile", not under the phase they interrupted).
  std::vector<Phase> phases;
  // The worker's own clock on its start-up (sandbox, python, imports, device set-up), which overlaps
  // the judge's first phases: the worker starts before the judge loads the reference.
  std::vector<Phase> worker_startup;
};

// A sandboxed worker started ahead of its candidate, with its run directory and (on CPU) its arena:
// kgate serve starts the next one while it waits for a request, so that a candidate does not wait for
// the worker's interpreter, torch import and CUDA set-up. It has run no code of any candidate, and
// serves one run at most: a run whose options start the same worker (device, sandbox, limits,
// executable) and that finds it still running; any other run starts its own as usual.
class PreparedWorker {
 public:
  struct State;  // judge.cpp
  explicit PreparedWorker(std::unique_ptr<State> state);
  ~PreparedWorker();  // kills the worker when no run took it
  PreparedWorker(const PreparedWorker&) = delete;
  PreparedWorker& operator=(const PreparedWorker&) = delete;
  std::unique_ptr<State> take();

 private:
  std::unique_ptr<State> state_;
};

// Starts a worker for a later run with these options (an Error when it cannot be started).
Result<std::unique_ptr<PreparedWorker>> prepare_worker(const RunOptions& options);

// An Error is a problem of the task, the options or the judge itself (exit code 2), never of the submission.
// A limit of the harness met while judging (the arena, GPU memory) is the verdict harness-error (exit 3).
// `prepared`, when given and it fits the options, is the run's worker (prepare_worker).
Result<RunReport> judge_submission(const Task& task, const std::filesystem::path& submission, const RunOptions& options,
                                   std::unique_ptr<PreparedWorker> prepared = nullptr);

nlohmann::json to_json(const RunReport&);
void write_text(std::ostream&, const RunReport&);

}  // namespace kgate::runtime
