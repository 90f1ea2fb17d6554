// The judge's side of the worker protocol: start-up and import, the compile requests served while it
// waits, one forward call through the arena, and building both models.
#include "runtime/judge_session.h"

#include <sys/random.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/compare.h"
#include "runtime/defences.h"
#include "runtime/embed.h"

namespace kgate::runtime::detail {

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

bool out_of_memory(const std::string& text) {
  return text.find("out of memory") != std::string::npos || text.find("OutOfMemoryError") != std::string::npos;
}

bool judge_can_import(const std::string& module) {
  // Only the top-level package: finding a submodule's spec imports its parents, and the judge imports
  // nothing for a candidate. Python code the candidate wrote is not on the judge's path.
  const std::string top = module.substr(0, module.find('.'));
  try {
    return !py::module_::import("importlib.util").attr("find_spec")(top).is_none();
  } catch (const py::error_already_set&) {
    return false;
  }
}

bool ended_by(CaseResult& result, const Answer& answer) {
  result.verdict = answer.verdict;
  result.reason = answer.reason;
  return true;
}

PhaseClock::PhaseClock(std::vector<Phase>& phases) : phases_(phases), last_(std::chrono::steady_clock::now()) {}

void PhaseClock::add(const std::string& name, double seconds) {
  for (auto& phase : phases_)
    if (phase.name == name) {
      phase.seconds += seconds;
      return;
    }
  phases_.push_back({name, seconds});
}

void PhaseClock::lap(const std::string& name) {
  const auto now = std::chrono::steady_clock::now();
  add(name, std::max(0.0, std::chrono::duration<double>(now - last_).count() - aside_));
  last_ = now;
  aside_ = 0;
}

void PhaseClock::set_aside(const std::string& name, double seconds) {
  add(name, seconds);
  aside_ += seconds;
}

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

// Waits for `expected`, serving compile requests meanwhile. Any other ending is a verdict.
Answer Judge::await(const std::string& expected, const std::string& what, int timeout_ms) {
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
        answer.reason = {sigsys    ? "sandbox-violation"
                         : sigxcpu ? "timeout"
                                   : "crashed",
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
    if (op == "error" && read.body.contains("missing_module")) {
      // A module that this environment lacks (a kernel language's package that is not installed where the
      // runtime runs): the environment's limit, not a verdict. The worker is not trusted, so the judge asks
      // its own interpreter; a module it can find is the candidate's failure as any other.
      const auto name = read.body.value("missing_module", std::string());
      if (!name.empty() && !judge_can_import(name)) {
        answer.verdict = Verdict::harness_error;
        answer.reason = {"missing-module", what + " needs the Python module '" + name +
                                               "', which this environment does not have: install it where the "
                                               "runtime runs (no verdict on the submission)"};
        return answer;
      }
    }
    if (op == "error" && read.body.value("harness", false)) {
      // The worker says its own code failed. Before the submission is loaded that is so, and
      // start_and_load makes it harness-error. Once the submission's code has run in the worker, nothing
      // the worker says of itself can be trusted (the candidate can raise the runtime's own fault, or
      // patch the code that would), so it stays the run's crash, and the message says whose step it was.
      answer.verdict = Verdict::crashed;
      answer.reason = {"crashed", what +
                                      " failed in the worker's runtime code, after the submission's code ran "
                                      "(the worker is not trusted then; if the submission is not at fault, "
                                      "this is a runtime bug): " +
                                      read.body.value("message", std::string())};
      return answer;
    }
    if (op == "violation") {
      report_.worker_end = worker_.reap(2000);
      answer.verdict = Verdict::sandbox_violation;
      answer.reason = {"sandbox-violation",
                       "syscall " + read.body.value("syscall", std::string("?")) + " during " + what};
      return answer;
    }
    answer.verdict = Verdict::crashed;
    answer.reason = {"crashed", what + " failed: " + read.body.value("message", "unexpected message '" + op + "'")};
    return answer;
  }
}

Answer Judge::start_and_load(const std::filesystem::path& submission) {
  // No code of the submission has run before the load: a worker that dies, hangs or trips its own
  // sandbox while starting up is the runtime's failure (a broken install, a busy GPU), never the candidate's.
  const auto before_load = [](Answer answer) {
    if (answer.verdict != Verdict::harness_error) {
      answer.reason = {"harness-fault", "the worker failed before the submission was loaded: " + answer.reason.message};
      answer.verdict = Verdict::harness_error;
    }
    return answer;
  };
  json setup{{"op", "setup"}, {"device", options_.device}, {"arena_bytes", arena_.numel()}};
  if (options_.device != "cpu") setup["cuda_arena"] = cuda_arena_handle_;
  if (Status s = worker_.send(setup); !s) return before_load(closed_answer("setup"));
  Answer ready = await("ready", "start-up", options_.start_timeout_ms);
  lap("worker start-up");
  if (!ready.ok) return before_load(std::move(ready));
  report_.sandbox = sandbox_state_from_json(ready.body.value("sandbox", json::object()));
  for (const auto& phase : ready.body.value("startup", json::array()))
    report_.worker_startup.push_back({phase.value("phase", std::string("?")), phase.value("seconds", 0.0)});
  const std::string module = "kgate_candidate_" + hex32(secret_u64());
  if (Status s = worker_.send({{"op", "load"},
                               {"path", std::filesystem::absolute(submission).string()},
                               {"module", module},
                               {"entry", entry_},
                               {"paths", entry_paths_}});
      !s)
    return closed_answer("import");
  Answer loaded = await("loaded", "import of the submission", options_.start_timeout_ms);
  lap("import");
  return loaded;
}

// The worker's output did not fit the arena. An output no larger than twice the reference's is the
// harness's limit (harness-error); a larger one is the candidate's wrong shape.
Answer Judge::arena_answer(const json& body) {
  Answer answer;
  const auto needed = body.value("arena_needed", std::size_t{0});
  const auto output = body.value("output_bytes", std::size_t{0});
  if (expected_output_bytes_ > 0 && output > 2 * expected_output_bytes_) {
    answer.verdict = Verdict::fail;
    answer.reason = {"shape-mismatch", body.value("message", std::string()) + ": " + std::to_string(output) +
                                           " bytes, the reference's output has " +
                                           std::to_string(expected_output_bytes_)};
    return answer;
  }
  answer.verdict = Verdict::harness_error;
  answer.reason = {"arena-too-small", body.value("message", std::string()) + " (" +
                                          std::to_string(arena_.numel() >> 20) + " MiB; the call needs " +
                                          std::to_string((needed + (std::size_t{1} << 20) - 1) >> 20) +
                                          " MiB): a limit of the harness; rerun with a larger --arena-mib"};
  return answer;
}

Answer Judge::closed_answer(const std::string& what) {
  Answer answer;
  report_.worker_end = worker_.reap(2000);
  answer.verdict = Verdict::crashed;
  answer.reason = {"crashed", "the worker " + report_.worker_end + " before " + what};
  return answer;
}

void Judge::serve_compile(const json& request) {
  CompileRecord record;
  const auto start = std::chrono::steady_clock::now();
  auto built = cache_.build(request, &record);
  if (clock_)
    clock_->set_aside("compile", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  report_.compiles.push_back(record);
  json reply = built ? json{{"op", "compiled"}, {"so", built->string()}}
                     : json{{"op", "compile-failed"}, {"message", built.error()}};
  (void)worker_.send(reply);
}

// Writes the inputs into the arena, asks for one forward call, and returns the output copy.
// probe: the worker does everything around a call but the call (the judge's overhead estimate).
Answer Judge::call_candidate(const std::vector<at::Tensor>& inputs, std::vector<TensorSlot>& slots, Outputs& outputs,
                             bool probe) {
  std::size_t end = 0;
  slots = layout_slots(inputs, &end);
  json slot_list = json::array();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto view = slot_view(arena_, slots[i]);
    if (!view) {
      Answer answer;
      answer.verdict = Verdict::harness_error;
      answer.reason = {
          "arena-too-small",
          "the inputs do not fit the arena (a limit of the harness; rerun with a larger --arena-mib): " + view.error()};
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
  if (Status s = worker_.send(
          {{"op", "call"}, {"inputs", slot_list}, {"output_offset", end}, {"poison_bytes", poison}, {"probe", probe}});
      !s)
    return closed_answer("forward");
  Answer answer = await("result", "forward", options_.call_timeout_ms);
  answer.round_trip_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  if (!answer.ok || probe) return answer;
  outputs.clear();
  for (const auto& slot_json : answer.body.value("outputs", json::array())) {
    auto slot = slot_from_json(slot_json);
    auto view = slot ? slot_view(arena_, *slot) : Result<at::Tensor>(Error{slot.error()});
    if (!view) {
      answer.ok = false;
      answer.verdict = Verdict::fail;
      answer.reason = {"shape-mismatch", "output slot: " + view.error()};
      return answer;
    }
    outputs.push_back(view->clone());
  }
  return answer;
}

// Sets the shape globals, builds the reference here and ModelNew in the worker from the same seed
// and init inputs. An answer with Verdict::error is the judge's or the reference's problem.
Answer Judge::build_models(py::module_& helper, py::object& reference, const ShapeSet& shapes, DType dtype,
                           py::object& model) {
  const std::string dtype_text(dtype_name(dtype));
  std::string redraw_plan;
  std::size_t redrawn_tensors = 0;  // entries of the plan; 0: nothing to redraw
  const std::uint64_t redraw_seed = secret_u64() >> 1;
  not_copied_.clear();
  json shape_json = json::object();
  for (const auto& [name, value] : shapes) shape_json[name] = value;
  try {
    helper.attr("set_shape_globals")(reference, shape_json.dump());
    const std::uint64_t init_seed = secret_u64() >> 1;
    py::tuple built = helper.attr("build_reference")(reference, init_seed, dtype_text, options_.device);
    model = built[0];
    // An output-argument candidate is built from the output it must write and the task's sizes instead.
    const std::string init_inputs =
        entry_ == "output-argument"
            ? helper.attr("output_argument_init")(reference, model, dtype_text, options_.device).cast<std::string>()
            : built[1].cast<std::string>();
    json request{{"op", "build"}, {"init_seed", init_seed}, {"init_inputs", init_inputs}, {"dtype", dtype_text}};
    if (options_.redraw_parameters) {
      redraw_plan = helper.attr("redraw_plan_json")(model).cast<std::string>();
      redrawn_tensors = json::parse(redraw_plan).size();
      if (redrawn_tensors > 0) request["redraw"] = {{"plan", redraw_plan}, {"seed", redraw_seed}};
    }
    if (Status s = worker_.send(request); !s) return closed_answer("build");
  } catch (const py::error_already_set& e) {
    Answer failed;
    const std::string text = embed::error_text(e);
    failed.verdict = out_of_memory(text) ? Verdict::harness_error : Verdict::error;
    failed.reason = {out_of_memory(text) ? "out-of-memory" : "error",
                     "the reference " + task_.reference.string() + " failed to build: " + text};
    return failed;
  }
  Answer built = await("built", "construction of the submission's entry", options_.call_timeout_ms);
  if (!built.ok) return built;
  if (auto pinned = check_l2_pinning(l2_from(built.body), "ModelNew's constructor")) {
    Answer failed;
    failed.verdict = Verdict::fail;
    failed.reason = *pinned;
    return failed;
  }
  // The reference's parameters are redrawn whatever the candidate did with them; the report says whether
  // the candidate got the same values, and how they were matched.
  if (redrawn_tensors > 0) {
    const json answer = built.body.value("redraw", json::object());
    try {
      py::tuple done = helper.attr("apply_redraw")(model, redraw_plan, redraw_seed);
      if (!done[0].cast<bool>()) throw std::runtime_error(done[1].cast<std::string>());
    } catch (const std::exception& e) {
      Answer failed;
      failed.verdict = Verdict::error;
      failed.reason = {"error", std::string("redrawing the reference's parameters: ") + e.what()};
      return failed;
    }
    const bool copied = answer.value("copied", false);
    not_copied_ = copied ? "" : answer.value("how", std::string("no answer"));
    if (report_.parameter_redraw.empty())
      report_.parameter_redraw = std::to_string(redrawn_tensors) + " tensors redrawn under the secret seed; " +
                                 (copied ? "copied into the candidate's " + answer.value("how", std::string("?"))
                                         : "not copied into the candidate: " + not_copied_);
  }
  return built;
}

}  // namespace kgate::runtime::detail
