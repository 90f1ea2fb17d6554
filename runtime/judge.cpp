// The judge's case loop: reference in the embedded Python, candidate in the worker, defences per call.
#include "runtime/judge.h"

#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/random.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

#include <ATen/ATen.h>

#include "runtime/compare.h"
#include "runtime/defences.h"
#include "runtime/embed.h"
#include "runtime/shm_arena.h"
#include "runtime/worker_process.h"

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

  // Runs every case; stops at the first case that ends the worker.
  Status run_cases(py::module_& helper, py::object& reference) {
    std::vector<std::pair<ShapeSet, bool>> shape_sets;
    for (const auto& s : task_.public_shapes) shape_sets.emplace_back(s, false);
    if (options_.hidden_shapes)
      for (const auto& s : task_.hidden_shapes) shape_sets.emplace_back(s, true);
    if (shape_sets.empty()) shape_sets.emplace_back(ShapeSet{}, false);
    const int seeds = options_.seeds > 0 ? options_.seeds : (options_.device == "cpu" ? 1 : 5);
    const std::vector<Distribution> distributions = options_.distributions.empty() ? all_distributions() : options_.distributions;
    InputOptions input_options = options_.input_options;
    input_options.special_values = task_.special_values;

    for (std::size_t shape_index = 0; shape_index < shape_sets.size(); ++shape_index) {
      const auto& [shapes, hidden] = shape_sets[shape_index];
      for (const DType dtype : task_.dtypes) {
        const std::string dtype_text(dtype_name(dtype));
        json shape_json = json::object();
        for (const auto& [name, value] : shapes) shape_json[name] = value;
        py::object model;
        std::string init_inputs;
        try {
          helper.attr("set_shape_globals")(reference, shape_json.dump());
          const std::uint64_t init_seed = secret_u64() >> 1;
          py::tuple built = helper.attr("build_reference")(reference, init_seed, dtype_text, options_.device);
          model = built[0];
          init_inputs = built[1].cast<std::string>();
          if (Status s = worker_.send({{"op", "build"}, {"init_seed", init_seed}, {"init_inputs", init_inputs},
                                       {"dtype", dtype_text}}); !s)
            return finish_with(closed_answer("build"), shape_index, hidden, shapes, dtype);
        } catch (const py::error_already_set& e) {
          return Error{"the reference " + task_.reference.string() + " failed to build: " + embed::error_text(e)};
        }
        Answer built = await("built", "ModelNew construction", options_.call_timeout_ms);
        if (!built.ok) return finish_with(built, shape_index, hidden, shapes, dtype);
        bool determinism_pending = true;
        for (int seed_index = 0; seed_index < seeds; ++seed_index) {
          for (const Distribution distribution : distributions) {
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
      }
    }
    return Status::ok();
  }

 private:
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
  Answer call_candidate(const std::vector<at::Tensor>& inputs, std::vector<TensorSlot>& slots, at::Tensor& output) {
    std::size_t end = 0;
    slots = layout_slots(inputs, &end);
    json slot_list = json::array();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      auto view = slot_view(arena_, slots[i]);
      if (!view) {
        Answer answer;
        answer.verdict = Verdict::error;
        answer.reason = {"error", "inputs do not fit the arena (--arena-bytes): " + view.error()};
        return answer;
      }
      view->copy_(inputs[i]);
      slot_list.push_back(slot_to_json(slots[i]));
    }
    if (arena_.is_cuda()) py::module_::import("kgate_judge").attr("synchronize")(options_.device);
    // Poison about as much free memory as the output will need (the inputs' size on CPU, where
    // poisoning pins glibc's heap); on CUDA the caching allocator's free blocks, generously.
    const std::size_t poison = options_.device == "cpu" ? std::max(end, std::size_t{4096}) : std::size_t{256} << 20;
    if (Status s = worker_.send({{"op", "call"}, {"inputs", slot_list}, {"output_offset", end}, {"poison_bytes", poison}}); !s)
      return closed_answer("forward");
    Answer answer = await("result", "forward", options_.call_timeout_ms);
    if (!answer.ok) return answer;
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

  Result<bool> run_case(py::module_& helper, py::object& reference, py::object& model, CaseResult& result,
                        bool check_determinism) {
    const std::string dtype_text(dtype_name(result.dtype));
    std::vector<at::Tensor> inputs;
    at::Tensor expected;
    result.reference_first = (secret_u64() & 1) != 0;
    const auto run_reference = [&]() -> Status {
      try {
        py::list clones;
        for (const auto& t : inputs) clones.append(embed::wrap(t.clone()));
        expected = embed::unwrap(helper.attr("run_reference")(model, clones));
      } catch (const py::error_already_set& e) {
        return Error{"the reference failed: " + embed::error_text(e)};
      }
      return Status::ok();
    };
    try {
      py::list structure_list = helper.attr("input_structure")(reference, secret_u64() >> 1, dtype_text, options_.device);
      std::vector<at::Tensor> structure;
      for (auto item : structure_list) structure.push_back(embed::unwrap(item));
      InputOptions input_options = options_.input_options;
      input_options.special_values = task_.special_values;
      inputs = fill_inputs(structure, task_.inputs, result.distribution, secret_u64(), input_options);
    } catch (const py::error_already_set& e) {
      return Error{"the reference's get_inputs failed: " + embed::error_text(e)};
    }
    std::vector<at::Tensor> originals;
    for (const auto& t : inputs) originals.push_back(t.clone());

    if (result.reference_first)
      if (Status s = run_reference(); !s) return Error{s.message()};
    std::vector<TensorSlot> slots;
    at::Tensor output;
    Answer answer = call_candidate(inputs, slots, output);
    if (!answer.ok) {
      result.verdict = answer.verdict;
      result.reason = answer.reason;
      return true;
    }
    if (!result.reference_first)
      if (Status s = run_reference(); !s) return Error{s.message()};

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
    for (const auto& slot : slots) after.push_back(slot_view(arena_, slot)->clone());
    if (auto reason = check_inputs_unchanged(originals, after)) return fail(*reason);
    if (auto reason = check_poison_read(output)) return fail(*reason);
    const CompareResult compared = compare_outputs(expected, output, task_.tolerance_for(result.dtype), task_.contract, task_.quantization);
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
    if (check_determinism) {
      result.determinism_checked = true;
      at::Tensor second;
      Answer again = call_candidate(originals, slots, second);
      if (!again.ok) {
        result.verdict = again.verdict;
        result.reason = again.reason;
        return true;
      }
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
};

void summarise(RunReport& report) {
  std::set<std::string> seen;
  for (const auto& c : report.cases) {
    report.verdict = std::max(report.verdict, c.verdict);
    if (c.reason && seen.insert(c.reason->id).second) report.reasons.push_back(*c.reason);
  }
}

}  // namespace

Result<RunReport> judge_submission(const Task& task, const std::filesystem::path& submission, const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  RunReport report;
  report.task = task.name;
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
    for (char c : task.name) module_name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    py::object reference;
    try {
      reference = helper.attr("load_module")(task.reference.string(), module_name);
    } catch (const py::error_already_set& e) {
      return Error{"cannot load the reference " + task.reference.string() + ": " + embed::error_text(e)};
    }

    std::optional<MemfdArena> memfd;
    at::Tensor arena;
    std::string cuda_handle;
    if (options.device == "cpu") {
      auto created = MemfdArena::create(options.arena_bytes);
      if (!created) return Error{created.error()};
      memfd.emplace(std::move(*created));
      arena = memfd->bytes();
    } else {
      py::tuple made = helper.attr("make_cuda_arena")(options.arena_bytes);
      arena = embed::unwrap(made[0]);
      cuda_handle = made[1].cast<std::string>();
    }

    WorkerSpawn spawn;
    spawn.executable = options.worker_executable;
    spawn.private_dir = run_dir.private_dir();
    spawn.log = run_dir.log();
    spawn.arena_fd = memfd ? memfd->fd() : -1;
    spawn.arena_bytes = options.arena_bytes;
    spawn.sandbox = options.sandbox;
    spawn.device = options.device;
    spawn.limits.cpu_seconds = static_cast<std::uint64_t>(options.start_timeout_ms / 1000 + 16 * options.call_timeout_ms / 1000);
    spawn.limits.address_space = options.device == "cpu" ? options.cpu_address_space : 0;
    if (options.device != "cpu") spawn.limits.processes = 0;  // the CUDA driver's threads; root is exempt anyway
    auto worker = WorkerProcess::spawn(spawn);
    if (!worker) return Error{"cannot start the worker " + options.worker_executable.string() + ": " + worker.error()};
    CompileCache cache(options.cache_dir.empty() ? default_compile_cache_dir() : options.cache_dir);
    Judge judge(task, options, report, *worker, cache, arena);
    judge.set_cuda_arena_handle(cuda_handle);
    Answer loaded = judge.start_and_load(submission);
    if (!loaded.ok) {
      if (report.sandbox.mode == "none" && loaded.reason.message.find("sandbox") != std::string::npos)
        return Error{"the worker could not set up its sandbox: " + loaded.reason.message};
      CaseResult failed;
      failed.verdict = loaded.verdict;
      failed.reason = loaded.reason;
      report.cases.push_back(failed);
    } else if (Status s = judge.run_cases(helper, reference); !s) {
      return Error{s.message()};
    }
    if (worker->alive()) {
      (void)worker->send({{"op", "exit"}});
      report.worker_end = worker->reap(5000);
    }
    report.worker_log_tail = tail_of(run_dir.log(), 4000);
  } catch (const py::error_already_set& e) {
    return Error{"judge: " + embed::error_text(e)};
  } catch (const std::exception& e) {
    return Error{std::string("judge: ") + e.what()};
  }
  summarise(report);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

json to_json(const RunReport& report) {
  json cases = json::array();
  for (const auto& c : report.cases) {
    json shapes = json::object();
    for (const auto& [k, v] : c.shapes) shapes[k] = v;
    json item{{"shape_set", c.shape_index},
              {"hidden_shape", c.hidden_shape},
              {"shapes", shapes},
              {"dtype", std::string(dtype_name(c.dtype))},
              {"seed_index", c.seed_index},
              {"distribution", std::string(distribution_name(c.distribution))},
              {"reference_first", c.reference_first},
              {"determinism_checked", c.determinism_checked},
              {"verdict", std::string(verdict_name(c.verdict))},
              {"errors", {{"max_abs", c.max_abs_err}, {"max_rel", c.max_rel_err}, {"norm_ratio", c.norm_err_ratio},
                          {"mismatches", c.mismatches}}}};
    if (c.reason) item["reason"] = {{"id", c.reason->id}, {"message", c.reason->message}};
    cases.push_back(std::move(item));
  }
  json reasons = json::array();
  for (const auto& r : report.reasons) reasons.push_back({{"id", r.id}, {"message", r.message}});
  json compiles = json::array();
  for (const auto& c : report.compiles)
    compiles.push_back({{"name", c.name}, {"key", c.key}, {"hit", c.hit}, {"ms", c.milliseconds}, {"error", c.error}});
  json out{{"task", report.task},
          {"submission", report.submission},
          {"device", report.device},
          {"verdict", std::string(verdict_name(report.verdict))},
          {"reasons", reasons},
          {"cases", cases},
          {"sandbox", to_json(report.sandbox)},
          {"compile_cache", compiles},
          {"worker_end", report.worker_end},
          {"seconds", report.seconds}};
  if (report.timing) out["timing"] = to_json(*report.timing);
  return out;
}

void write_text(std::ostream& out, const RunReport& report) {
  std::size_t passed = 0;
  for (const auto& c : report.cases) passed += c.verdict == Verdict::pass;
  out << report.submission << ": " << verdict_name(report.verdict) << " (task " << report.task << ", " << report.device
      << ", " << passed << "/" << report.cases.size() << " cases passed, " << std::fixed << std::setprecision(1)
      << report.seconds << " s)\n";
  for (const auto& r : report.reasons) out << "  " << r.id << ": " << r.message << "\n";
  out << "  sandbox: " << report.sandbox.mode;
  if (report.sandbox.landlock_abi) out << " (Landlock ABI " << report.sandbox.landlock_abi << ", seccomp)";
  else if (report.sandbox.seccomp) out << " (seccomp only: Landlock is unavailable on this kernel)";
  out << "\n";
  for (const auto& c : report.compiles)
    out << "  compile " << c.name << ": " << (c.hit ? "cache hit" : "built") << " in " << std::setprecision(1) << c.milliseconds
        << " ms" << (c.error.empty() ? "" : " (" + c.error + ")") << "\n";
  if (report.verdict == Verdict::crashed && !report.worker_log_tail.empty())
    out << "  worker output (tail):\n" << report.worker_log_tail << "\n";
}

}  // namespace kgate::runtime
