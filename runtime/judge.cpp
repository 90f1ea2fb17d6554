// kgate run's judge: sets up one run (the reference, the arena, the sandboxed worker) and hands it to a
// detail::Judge session (runtime/judge_session.h); an out-of-memory run is run again with the GPU to itself.
#include "runtime/judge.h"

#include <fcntl.h>
#include <ftw.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>

#include <ATen/ATen.h>

#include "analyzers/pipeline/pipeline.h"
#include "runtime/embed.h"
#include "runtime/judge_session.h"
#include "runtime/shm_arena.h"
#include "runtime/worker_process.h"

namespace py = pybind11;
using nlohmann::json;

namespace kgate::runtime {
namespace {

using namespace detail;

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
    ::nftw(
        root_.c_str(), [](const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }, 16,
        FTW_DEPTH | FTW_PHYS);
  }
  bool ok() const { return !root_.empty(); }
  std::filesystem::path private_dir() const { return root_ / "private"; }
  std::filesystem::path stage_dir() const { return root_ / "task"; }
  std::filesystem::path log() const { return root_ / "worker.log"; }

 private:
  std::filesystem::path root_;
};

std::string tail_of(const std::filesystem::path& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > bytes ? text.substr(text.size() - bytes) : text;
}

// What a run's arena must hold, from the reference itself.
struct ArenaSize {
  std::size_t bytes = 0;         // 0: unknown (the device's default applies)
  std::size_t output_bytes = 0;  // the largest reference output (0: unknown)
};

// Measures every shape set on the meta device (the inputs get_inputs() builds, the output the reference
// returns, floating tensors at 4 bytes): the inputs plus twice the output (a candidate's output lands
// after the inputs; room for one of another layout), plus 64 MiB for alignment. Where the task has a
// byte formula, twice its largest value plus 256 MiB when that is more.
// Both measurements are kept in the task-facts cache (kgate_judge.cached) by the reference's source.
ArenaSize arena_size_for(const Task& task, py::module_& helper, py::object& reference, const std::string& cache_dir) {
  ArenaSize size;
  std::vector<ShapeSet> sets = task.public_shapes;
  sets.insert(sets.end(), task.hidden_shapes.begin(), task.hidden_shapes.end());
  if (sets.empty()) sets.emplace_back();
  for (const auto& shape : sets) {
    json shape_json = json::object();
    for (const auto& [name, value] : shape) shape_json[name] = value;
    try {
      helper.attr("set_shape_globals")(reference, shape_json.dump());
      const json io =
          json::parse(helper
                          .attr("cached")(cache_dir, task.reference.string(), "io_bytes " + shape_json.dump(),
                                          helper.attr("io_bytes_json"), reference, 0)
                          .cast<std::string>());
      const auto inputs = io.at(0).get<std::size_t>();
      const std::size_t output = io.at(1).is_null() ? inputs : io.at(1).get<std::size_t>();
      if (!io.at(1).is_null()) size.output_bytes = std::max(size.output_bytes, output);
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

// What the judge takes from the static gate's facts about the submission (the tree-sitter engines: what
// the judge trusts does not depend on the optional Clang part): the kernels it defines (CUDA __global__
// and @triton.jit functions) and its harness profile.
FileResult candidate_facts(const std::filesystem::path& submission) {
  AnalysisContext context;
  context.cpp_engine = "tree-sitter";
  return analyze_file(submission.string(), context);
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
Task with_generalization_shapes(const Task& task, py::module_& helper, py::object& reference, RunReport& report,
                                const std::string& cache_dir) {
  Task derived = task;
  const json sets = json::parse(helper
                                    .attr("cached")(cache_dir, task.reference.string(), "generalization_shapes",
                                                    helper.attr("generalization_shapes"), reference)
                                    .cast<std::string>());
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
  report.derived_from = sets.value("origin", std::string("the reference's globals"));
  // A GPU MODE task's check_implementation, or a LeetGPU challenge's atol and rtol, name its tolerance:
  // it replaces the judge's default for every dtype, and the norm check keeps the default's ratio to rtol.
  if (sets.contains("tolerance")) {
    const double rtol = sets.at("tolerance").at("rtol").get<double>();
    const double atol = sets.at("tolerance").at("atol").get<double>();
    for (const DType d : derived.dtypes) {
      const Tolerance base = default_tolerance(d);
      derived.tolerance[d] = {atol, rtol, base.rtol > 0.0 ? rtol * (base.norm_rtol / base.rtol) : 0.1 * rtol};
    }
    std::ostringstream note;
    note << "tolerance from " << sets.value("tolerance_from", std::string("the task's check_implementation"))
         << ": rtol " << rtol << ", atol " << atol << " (every dtype)";
    report.reference_notes.push_back(note.str());
  }
  return derived;
}

// The quick profile's one hidden shape set: the one with the most odd sizes (the first of those).
std::vector<ShapeSet> quick_hidden_shapes(const std::vector<ShapeSet>& hidden) {
  if (hidden.empty()) return {};
  const auto odd_sizes = [](const ShapeSet& set) {
    return std::count_if(set.begin(), set.end(), [](const auto& entry) { return entry.second % 2 != 0; });
  };
  return {*std::max_element(hidden.begin(), hidden.end(),
                            [&](const ShapeSet& a, const ShapeSet& b) { return odd_sizes(a) < odd_sizes(b); })};
}

// The worker a run with these options starts (its directories and arena descriptor come later).
WorkerSpawn spawn_for(const RunOptions& options) {
  WorkerSpawn spawn;
  spawn.executable = options.worker_executable;
  spawn.sandbox = options.sandbox;
  spawn.device = options.device;
  spawn.limits.cpu_seconds = static_cast<std::uint64_t>(options.start_timeout_ms) / 1000 +
                             16 * static_cast<std::uint64_t>(options.call_timeout_ms) / 1000;
  spawn.limits.address_space = options.device == "cpu" ? options.cpu_address_space : 0;
  if (options.device != "cpu") spawn.limits.processes = 0;  // the CUDA driver's threads; root is exempt anyway
  return spawn;
}

// Whether a worker started ahead as `ahead` can serve a run that wants `wanted`: the same program,
// sandbox, device and limits, except that its CPU-time limit may be larger (the judge lowers it).
bool fits(const WorkerSpawn& ahead, const WorkerSpawn& wanted) {
  return ahead.executable == wanted.executable && ahead.sandbox == wanted.sandbox && ahead.device == wanted.device &&
         ahead.limits.cpu_seconds >= wanted.limits.cpu_seconds && ahead.limits.file_bytes == wanted.limits.file_bytes &&
         ahead.limits.processes == wanted.limits.processes && ahead.limits.address_space == wanted.limits.address_space;
}

}  // namespace

// One run's worker and what it owns: the run directory (its private directory and log) and, on CPU,
// the arena's memfd (sized later, once the reference says what the task needs).
struct PreparedWorker::State {
  RunDirectory run_dir;
  std::optional<MemfdArena> memfd;
  std::optional<WorkerProcess> worker;
  WorkerSpawn spawn;
};

PreparedWorker::PreparedWorker(std::unique_ptr<State> state) : state_(std::move(state)) {}
PreparedWorker::~PreparedWorker() = default;
std::unique_ptr<PreparedWorker::State> PreparedWorker::take() { return std::move(state_); }

namespace {

Result<std::unique_ptr<PreparedWorker::State>> start_worker(const RunOptions& options) {
  auto state = std::make_unique<PreparedWorker::State>();
  if (!state->run_dir.ok())
    return Error{"cannot create a run directory under " + std::filesystem::temp_directory_path().string()};
  std::error_code ec;
  std::filesystem::create_directory(state->run_dir.private_dir(), ec);
  std::filesystem::permissions(state->run_dir.private_dir(), std::filesystem::perms::owner_all, ec);
  if (options.device == "cpu") {
    auto created = MemfdArena::create(0);
    if (!created) return Error{created.error()};
    state->memfd.emplace(std::move(*created));
  }
  state->spawn = spawn_for(options);
  state->spawn.private_dir = state->run_dir.private_dir();
  state->spawn.log = state->run_dir.log();
  state->spawn.arena_fd = state->memfd ? state->memfd->fd() : -1;
  auto worker = WorkerProcess::spawn(state->spawn);
  if (!worker) return Error{"cannot start the worker " + options.worker_executable.string() + ": " + worker.error()};
  state->worker.emplace(std::move(*worker));
  return state;
}

Result<RunReport> judge_once(const Task& given_task, const std::filesystem::path& submission, const RunOptions& options,
                             std::unique_ptr<PreparedWorker> prepared) {
  const Task* task_ptr = &given_task;
  std::optional<Task> derived_task;
  const auto start = std::chrono::steady_clock::now();
  RunReport report;
  PhaseClock clock(report.phases);
  report.profile = std::string(run_profile_name(options.profile));
  report.task = given_task.name;
  report.category = given_task.category;
  report.submission = submission.string();
  report.device = options.device;

  // The worker starts first: its interpreter and torch import overlap the judge's own start-up and the
  // reference's load. A worker started ahead (kgate serve) has done them already.
  std::unique_ptr<PreparedWorker::State> run = prepared ? prepared->take() : nullptr;
  if (run) {
    const WorkerSpawn wanted = spawn_for(options);
    if (!fits(run->spawn, wanted)) {
      report.worker_ahead = "did not fit the run's options";
      run.reset();
    } else if (!run->worker->running()) {
      report.worker_ahead = "had ended";
      run.reset();
    } else if (Status lowered = run->worker->lower_cpu_limit(wanted.limits.cpu_seconds); !lowered) {
      report.worker_ahead = "did not fit the run's options (" + lowered.message() + ")";
      run.reset();
    } else {
      run->spawn.limits.cpu_seconds = wanted.limits.cpu_seconds;
      report.worker_ahead = "used";
    }
  }
  if (!run) {
    auto started = start_worker(options);
    if (!started) return Error{started.error()};
    run = std::move(*started);
  }
  const RunDirectory& run_dir = run->run_dir;
  std::optional<MemfdArena>& memfd = run->memfd;
  std::optional<WorkerProcess>& worker = run->worker;
  std::error_code ec;
  bool memory_short = false;  // the wait for the run's GPU memory ended with less free

  if (Status s = embed::start_python(); !s) return Error{s.message()};
  try {
    py::module_ helper = embed::helper("kgate_judge");
    std::string module_name = "kgate_reference_";
    for (char c : given_task.name) module_name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    py::object reference;
    // A GPU MODE problem's files (task.py, utils.py) are staged here, outside the worker's private
    // directory: both processes import them, and the worker cannot change the judge's copy.
    const std::filesystem::path stage_dir = run_dir.stage_dir();
    std::filesystem::create_directory(stage_dir, ec);
    std::string entry;
    try {
      reference = helper.attr("load_module")(given_task.reference.string(), module_name, stage_dir.string());
      entry = helper.attr("entry_kind")(reference).cast<std::string>();
    } catch (const py::error_already_set& e) {
      return Error{"cannot load the reference " + given_task.reference.string() + ": " + embed::error_text(e)};
    }
    clock.lap("start-up");
    const std::string cache_dir =
        (options.cache_dir.empty() ? default_compile_cache_dir() : options.cache_dir).string();

    at::Tensor arena;
    std::string cuda_handle;
    if (given_task.bare_kernelbench && options.hidden_shapes) {
      try {
        derived_task = with_generalization_shapes(given_task, helper, reference, report, cache_dir);
        task_ptr = &*derived_task;
      } catch (const py::error_already_set& e) {
        if (out_of_memory(embed::error_text(e))) throw;  // the harness's limit, below
        return Error{"deriving shape sets from the reference " + given_task.reference.string() + ": " +
                     embed::error_text(e)};
      }
      clock.lap("shape derivation");
    }
    if (options.profile == RunProfile::quick && task_ptr->hidden_shapes.size() > 1) {
      if (!derived_task) derived_task = given_task;
      derived_task->hidden_shapes = quick_hidden_shapes(derived_task->hidden_shapes);
      task_ptr = &*derived_task;
    }
    const Task& task = *task_ptr;
    const ArenaSize sized = arena_size_for(task, helper, reference, cache_dir);
    if (memfd) {
      // A memfd's pages exist only once written: 1 GiB costs nothing until used.
      if (Status s =
              memfd->resize(options.arena_bytes ? options.arena_bytes : std::max(std::size_t{1} << 30, sized.bytes));
          !s)
        return Error{s.message()};
      arena = memfd->bytes();
    } else {
      // CUDA memory is real at once, and runs share the GPU: size it by the task, and wait for the
      // memory the run needs (the arena, the judge's copies of inputs and outputs, the worker's, and
      // the two processes' CUDA contexts) to be free before taking it: on an H100, a relu over a
      // 547 MiB input peaked at 5.2 GiB in the judge and 2.2 GiB in the worker, 4.45 times its
      // 1.7 GiB arena. Past the wait the run goes ahead; running out is then a harness error.
      const std::size_t arena_bytes = options.arena_bytes ? options.arena_bytes : sized.bytes;
      constexpr std::size_t kContexts = std::size_t{1} << 30;  // about 520 MiB a process
      // Run alone, a candidate that runs out is at fault only where the memory the run needs was free
      // (a GPU that other users fill leaves it less than the task needs: that is the harness's limit).
      if (arena_bytes > 0 &&
          !helper.attr("wait_for_memory")(4 * arena_bytes + kContexts, options.memory_wait_s).cast<bool>())
        memory_short = true;
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
    clock.lap("arena");

    CompileCache cache(cache_dir);
    RunOptions judged = options;
    judged.alone = options.alone && !memory_short;
    Judge judge(task, judged, report, *worker, cache, arena);
    judge.set_clock(&clock);
    judge.set_expected_output_bytes(sized.output_bytes);
    judge.set_cuda_arena_handle(cuda_handle);
    const FileResult facts = candidate_facts(submission);
    judge.set_candidate_kernels(facts.kernels);
    // A KernelBench-style task run by a submission of the output-argument harness (solve(x, out, N)).
    if (entry == "model" && facts.harness == "output-argument") entry = "output-argument";
    // A LeetGPU CUDA submission is a library of device code: there is nothing to run it on without a GPU.
    if (entry == "leetgpu" && options.device == "cpu" && submission.extension() != ".py")
      return Error{"the LeetGPU submission " + submission.string() +
                   " is CUDA code, built into a library and called on a GPU: run it with --device cuda"};
    judge.set_candidate_entry(entry, {stage_dir.string()});
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
      if (options.device != "cpu") {
        gpu_lock.emplace(options.device);
        clock.lap("waiting for the GPU");
      }
      // The reference's get_inputs or set-up running out of GPU memory is the harness's limit (other
      // runs hold the memory), never a task error: out-of-memory, then the run again with the GPU alone.
      const auto fail = [&](const Status& s) -> std::optional<Error> {
        if (!out_of_memory(s.message())) return Error{s.message()};
        report.cases.push_back(judge_out_of_memory(s.message()));
        return std::nullopt;
      };
      if (Status s = judge.run_cases(helper, reference); !s)
        if (auto error = fail(s)) return *error;
      clock.lap("cases");
      if (std::all_of(report.cases.begin(), report.cases.end(),
                      [](const CaseResult& c) { return c.verdict == Verdict::pass; })) {
        if (Status t = judge.run_timing(helper, reference); !t)
          if (auto error = fail(t)) return *error;
        if (options.device != "cpu" && options.timed_calls > 0) clock.lap("timing");
      }
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
  clock.lap("finish");
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace

std::optional<RunProfile> parse_run_profile(std::string_view name) {
  if (name == "full") return RunProfile::full;
  if (name == "quick") return RunProfile::quick;
  return std::nullopt;
}

std::string_view run_profile_name(RunProfile profile) { return profile == RunProfile::quick ? "quick" : "full"; }

Result<std::unique_ptr<PreparedWorker>> prepare_worker(const RunOptions& options) {
  auto started = start_worker(options);
  if (!started) return Error{started.error()};
  return std::make_unique<PreparedWorker>(std::move(*started));
}

Result<RunReport> judge_submission(const Task& task, const std::filesystem::path& submission, const RunOptions& given,
                                   std::unique_ptr<PreparedWorker> prepared) {
  // The profile's defaults, once: the judge reads concrete seeds, distributions and timed calls.
  RunOptions options = given;
  const bool quick = options.profile == RunProfile::quick;
  if (options.seeds <= 0) options.seeds = quick || options.device == "cpu" ? 1 : 5;
  if (options.distributions.empty())
    options.distributions =
        quick ? std::vector<Distribution>{Distribution::normal, Distribution::outlier} : all_distributions();
  if (options.timed_calls < 0) options.timed_calls = quick ? 10 : 30;
  const bool cuda = options.device != "cpu";
  std::optional<GpuLock> presence;
  if (cuda) presence.emplace(options.device, "presence", options.alone ? LOCK_EX : LOCK_SH);
  auto report = judge_once(task, submission, options, std::move(prepared));
  if (!report) return report;
  report->ran_alone = options.alone;
  const bool ran_out = std::any_of(report->reasons.begin(), report->reasons.end(),
                                   [](const Reason& r) { return r.id == "out-of-memory"; });
  if (!cuda || options.alone || report->verdict != Verdict::harness_error || !ran_out) return report;
  // What this process still holds of the attempt (the allocator's cached blocks, the arena the worker
  // mapped) goes back before it waits for the GPU to itself: the run that has it now needs that memory.
  try {
    (void)embed::helper("kgate_judge").attr("release_cuda_memory")();
  } catch (const py::error_already_set&) {
    // Nothing given back: the second run waits for its memory as any run does.
  }
  presence.reset();
  RunOptions alone = options;
  alone.alone = true;
  return judge_submission(task, submission, alone, nullptr);
}

}  // namespace kgate::runtime
