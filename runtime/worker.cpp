// The worker's serve loop: set-up, sandbox, then load/build/call requests from the judge.
#include "runtime/worker.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "runtime/defences.h"
#include "runtime/embed.h"
#include "runtime/exec_guard.h"
#include "runtime/protocol.h"
#include "runtime/shm_arena.h"
#if KGATE_HAVE_CUDA
#include "runtime/cuda/cupti_trace.h"
#include "runtime/cuda/gpu_timer.h"
#endif

namespace py = pybind11;
using nlohmann::json;

namespace kgate::runtime {
namespace {

// harness: the failure is the runtime's own (its set-up, the protocol, a step where no code of the
// submission runs). Before the submission is loaded the judge makes it harness-error; after, the
// worker is untrusted and the mark only names whose step failed (the verdict stays crashed).
json error_message(const std::string& stage, const std::string& message, bool harness = false) {
  json error{{"op", "error"}, {"stage", stage}, {"message", message}};
  if (harness) error["harness"] = true;
  return error;
}

class WorkerSession {
 public:
  WorkerSession(const WorkerOptions& options, py::module_ helper) : options_(options), helper_(std::move(helper)) {}

  // The first message: the device and where the arena is. CUDA is initialised here, before seccomp.
  // The judge starts the worker before it knows the arena's size (start-up overlaps its own), so the
  // memfd's size comes here.
  Status set_up(const json& setup) {
    device_ = setup.value("device", std::string("cpu"));
    if (device_ == "cpu") {
      auto arena = MemfdArena::attach(options_.arena_fd, setup.value("arena_bytes", std::size_t{0}));
      if (!arena) return Error{arena.error()};
      memfd_.emplace(std::move(*arena));
      arena_ = memfd_->bytes();
    } else {
      arena_ = embed::unwrap(helper_.attr("open_cuda_arena")(setup.at("cuda_arena").get<std::string>()));
#if KGATE_HAVE_CUDA
      // CUPTI and the timer start before seccomp and before the candidate is imported.
      if (Status s = cuda::start_activity_trace(); !s) return s;
      auto timer = cuda::GpuTimer::create();
      if (!timer) return Error{timer.error()};
      timer_ = std::move(*timer);
#endif
    }
    return Status::ok();
  }

  json handle(const json& request) {
    const std::string op = request.value("op", "");
    try {
      if (op == "load") return load(request);
      if (op == "build") return build(request);
      if (op == "call") return call(request);
    } catch (const py::error_already_set& e) {
      json error = error_message(op, embed::error_text(e), e.matches(helper_.attr("HarnessFault")));
      // Only a hint: the judge checks its own environment before it believes a module is missing.
      if (e.matches(PyExc_ModuleNotFoundError) && py::hasattr(e.value(), "name") && !e.value().attr("name").is_none())
        error["missing_module"] = py::str(e.value().attr("name")).cast<std::string>();
      return error;
    } catch (const json::exception& e) {
      return error_message(op, std::string("malformed request: ") + e.what(), true);  // the judge's message
    } catch (const std::exception& e) {
      // Anything else may come from the candidate's objects (its output tensor's copy, say).
      return error_message(op, e.what());
    }
    return error_message(op, "unknown request '" + op + "'", true);
  }

 private:
  json load(const json& request) {
    arm_exec_guard();
    py::list paths;
    for (const auto& path : request.value("paths", std::vector<std::string>{})) paths.append(path);
    module_ =
        helper_.attr("import_candidate")(request.at("path").get<std::string>(), request.at("module").get<std::string>(),
                                         request.value("entry", std::string("model")), paths);
    return {{"op", "loaded"}};
  }

  json build(const json& request) {
    if (!module_) return error_message("build", "no candidate loaded", true);
    model_ = helper_.attr("build")(*module_, request.at("init_seed").get<std::uint64_t>(),
                                   request.at("init_inputs").get<std::string>(), request.at("dtype").get<std::string>(),
                                   device_);
    json built{{"op", "built"}};
    if (request.contains("redraw")) {
      const json& redraw = request["redraw"];
      py::tuple done = helper_.attr("apply_redraw")(*model_, redraw.at("plan").get<std::string>(),
                                                    redraw.at("seed").get<std::uint64_t>());
      built["redraw"] = {{"copied", done[0].cast<bool>()}, {"how", done[1].cast<std::string>()}};
    }
#if KGATE_HAVE_CUDA
    // ModelNew's constructor may already have pinned memory in L2 (T15).
    if (timer_) {
      if (auto l2 = timer_->l2_state())
        built["l2"] = {{"persisting_limit", l2->persisting_limit},
                       {"window_bytes", l2->window_bytes},
                       {"baseline_limit", l2->baseline_limit}};
    }
#endif
    return built;
  }

  json call(const json& request) {
    if (!model_) return error_message("call", "no model built", true);
    py::list inputs;
    json input_ranges = json::array();
    for (const auto& slot_json : request.at("inputs")) {
      auto slot = slot_from_json(slot_json);
      if (!slot) return error_message("call", slot.error(), true);
      auto view = slot_view(arena_, *slot);
      if (!view) return error_message("call", view.error(), true);
      const StorageRange range = storage_range_of(*view);
      input_ranges.push_back({range.begin, range.end});
      inputs.append(embed::wrap(*view));
    }
    json measured = json::object();
    // A probe runs everything around a call but the call itself: the judge's estimate of this overhead.
    // So it prepares the call too, and handles an input as the call's output (see below).
    const bool probe = request.value("probe", false);
    // The runtime's own preparation (a GPU MODE or LeetGPU entry's fresh output buffers) comes before the
    // poison and the trace: its fills are not the candidate's kernels.
    const py::object prepared = helper_.attr("prepare_call")(*model_, inputs);
    poison_free_memory(arena_.device(), request.value("poison_bytes", std::size_t{0}));
#if KGATE_HAVE_CUDA
    if (timer_) {
      // No CUPTI flush between the preparation and the call: the first activity after a forced flush
      // costs ~650 us of host time (measured on an H100: tests/bench/cupti_flush_cost.py),
      // which would land in the timed window. The preparation's records are cut off after the call.
      if (Status s = timer_->prepare(); !s) return error_message("call", s.message());
      if (Status s = timer_->begin(); !s) return error_message("call", s.message());
    }
#endif
    py::object out = probe ? py::object(inputs[0]) : py::object(helper_.attr("call")(*model_, prepared));
#if KGATE_HAVE_CUDA
    if (timer_) {
      if (Status s = timer_->end_of_forward(); !s) return error_message("call", s.message());
      auto timed = timer_->finish();
      if (!timed) return error_message("call", "CUDA error in the call: " + timed.error());
      std::uint64_t dropped = 0;
      // What came before the flush (the poison fills, the flush itself) is not the call's; the flush ran
      // on the current stream, so its record names the call's stream too.
      const Trace all = cuda::drain_activity_trace(&dropped);
      const MemoryRecord* flush = last_memset_of(all, timer_->flush_bytes());
      if (flush) measured["stream"] = flush->stream;
      const Trace trace = flush ? records_after(all, flush->end_ns) : all;
      measured["timing"] = {{"synced_s", timed->synced_s}, {"stream_s", timed->stream_s}, {"wall_s", timed->wall_s}};
      measured["trace"] = trace_to_json(trace);
      measured["trace"]["dropped"] = dropped;
      if (auto l2 = timer_->l2_state())
        measured["l2"] = {{"persisting_limit", l2->persisting_limit},
                          {"window_bytes", l2->window_bytes},
                          {"baseline_limit", l2->baseline_limit}};
    }
#endif
    if (probe) {
      // What a call does with its output, done with an input: the flattening, the facts, the copy into
      // the arena (where it fits) and the synchronisation, so that the judge's clock sees this work in the
      // probe as in the call and only forward itself tells them apart.
      py::tuple flat = helper_.attr("output_leaves")(out);
      std::size_t offset = request.at("output_offset").get<std::size_t>();
      for (auto item : flat[0].cast<py::list>()) {
        (void)facts_json(py::reinterpret_borrow<py::object>(item));
        const at::Tensor output = embed::unwrap(item);
        TensorSlot slot{offset, output.scalar_type(), output.sizes().vec()};
        if (auto target = slot_view(arena_, slot)) target->copy_(output);
        offset = align_up(offset + slot_bytes(slot));
      }
      if (arena_.is_cuda()) helper_.attr("synchronize_device")();
      return {{"op", "result"}, {"probe", true}, {"measured", measured}};
    }
    // A tuple, list or dict of tensors is flattened as the judge flattens the reference's output; each
    // tensor goes into the arena after the one before it.
    py::tuple flat = helper_.attr("output_leaves")(out);
    json facts = json::array();
    json slots = json::array();
    json devices = json::array();
    std::size_t offset = request.at("output_offset").get<std::size_t>();
    std::size_t output_bytes = 0;
    for (auto item : flat[0].cast<py::list>()) {
      const at::Tensor output = embed::unwrap(item);
      facts.push_back(facts_json(py::reinterpret_borrow<py::object>(item)));
      TensorSlot slot{offset, output.scalar_type(), output.sizes().vec()};
      output_bytes += output.nbytes();
      auto target = slot_view(arena_, slot);
      if (!target) {
        // The judge decides whose limit this is: it knows the reference's output size.
        json error = error_message("call", "output of shape " + json(slot.shape).dump() + " does not fit the arena");
        error["arena_needed"] = offset + output.nbytes();
        error["output_bytes"] = output_bytes;
        return error;
      }
      target->copy_(output);
      slots.push_back(slot_to_json(slot));
      devices.push_back(output.device().str());
      offset = align_up(offset + slot_bytes(slot));
    }
    if (arena_.is_cuda()) helper_.attr("synchronize_device")();
    return {{"op", "result"},
            {"outputs", slots},
            {"output_devices", devices},
            {"facts", facts},
            {"structure", flat[1].cast<std::string>()},
            {"input_ranges", input_ranges},
            {"measured", measured}};
  }

  json facts_json(const py::object& out) {
    return json::parse(
        py::module_::import("json").attr("dumps")(helper_.attr("output_facts")(out)).cast<std::string>());
  }

  const WorkerOptions& options_;
  py::module_ helper_;
  std::string device_ = "cpu";
  std::optional<MemfdArena> memfd_;
  at::Tensor arena_;
  std::optional<py::object> module_;
  std::optional<py::object> model_;
#if KGATE_HAVE_CUDA
  std::unique_ptr<cuda::GpuTimer> timer_;
#endif
};

double seconds_since(std::chrono::steady_clock::time_point& since) {
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(now - since).count();
  since = now;
  return seconds;
}

// startup: the worker's own clock on its start-up so far (RunReport::worker_startup).
int serve(const WorkerOptions& options, SandboxState state, json startup, std::chrono::steady_clock::time_point clock) {
  py::module_ helper = embed::helper("kgate_worker");
  startup.push_back({{"phase", "imports"}, {"seconds", seconds_since(clock)}});
  // The CUDA context and Triton's driver utilities, before the judge's set-up arrives (it is still loading
  // the reference and sizing the arena); Landlock is on already, seccomp comes after set-up.
  if (options.device != "cpu") {
    helper.attr("prepare_cuda")();
    startup.push_back({{"phase", "CUDA and Triton"}, {"seconds", seconds_since(clock)}});
  }
  WorkerSession session(options, helper);
  MessageRead setup = read_message(options.control_in, -1);
  if (setup.kind != MessageRead::Kind::message) return 3;
  startup.push_back({{"phase", "waiting for the judge"}, {"seconds", seconds_since(clock)}});
  if (Status s = session.set_up(setup.body); !s) {
    (void)write_message(options.control_out, error_message("setup", s.message(), true));
    return 3;
  }
  startup.push_back({{"phase", "arena set-up"}, {"seconds", seconds_since(clock)}});
  helper.attr("install_compile_hook")(options.control_in, options.control_out);
  if (options.sandbox) {
    if (Status s = install_syscall_filter(options.control_out, state.jit_exec); !s) {
      (void)write_message(options.control_out, error_message("sandbox", s.message(), true));
      return 3;
    }
    state.seccomp = true;
    state.mode = state.landlock_abi > 0 ? "full" : "no-landlock";
  }
  if (!write_message(options.control_out, {{"op", "ready"}, {"sandbox", to_json(state)}, {"startup", startup}}))
    return 3;
  for (;;) {
    MessageRead request = read_message(options.control_in, -1);
    if (request.kind != MessageRead::Kind::message) return request.kind == MessageRead::Kind::closed ? 0 : 3;
    if (request.body.value("op", "") == "exit") {
      // Done: no interpreter teardown (a fifth of a second per run); the kernel releases the CUDA context.
      // What the candidate printed still reaches the log.
      try {
        py::module_ sys = py::module_::import("sys");
        sys.attr("stdout").attr("flush")();
        sys.attr("stderr").attr("flush")();
      } catch (const py::error_already_set&) {
      }
      std::fflush(nullptr);
      ::_exit(0);
    }
    if (!write_message(options.control_out, session.handle(request.body))) return 3;
  }
}

}  // namespace

int run_worker(const WorkerOptions& options) {
  auto clock = std::chrono::steady_clock::now();
  set_violation_channel(options.control_out);
  SandboxState state;
  if (Status s = apply_limits(options.limits); !s) {
    (void)write_message(options.control_out, error_message("sandbox", s.message(), true));
    return 3;
  }
  if (::chdir(options.private_dir.c_str()) != 0) {
    (void)write_message(options.control_out,
                        error_message("sandbox", "cannot enter " + options.private_dir.string(), true));
    return 3;
  }
  if (options.sandbox) {
    SandboxExtras extras;
    extras.jit_exec = options.device != "cpu";
    extras.dev_shm_writable = options.device != "cpu";
    auto abi = restrict_filesystem(options.private_dir, extras);
    if (!abi) {
      (void)write_message(options.control_out, error_message("sandbox", abi.error(), true));
      return 3;
    }
    state.landlock_abi = *abi;
    state.jit_exec = extras.jit_exec && *abi > 0;  // without Landlock nothing may be executed
  }
  // Exec is open to the Triton toolchain on CUDA workers: every other program is a violation.
  if (state.jit_exec) install_exec_guard(jit_toolchain_executables());
  json startup = json::array();
  startup.push_back({{"phase", "sandbox"}, {"seconds", seconds_since(clock)}});
  if (Status s = embed::start_python(); !s) {
    (void)write_message(options.control_out, error_message("python", s.message(), true));
    return 3;
  }
  startup.push_back({{"phase", "python"}, {"seconds", seconds_since(clock)}});
  try {
    return serve(options, state, std::move(startup), clock);
  } catch (const py::error_already_set& e) {
    // Only the worker's own start-up escapes serve(): requests end in handle(), which answers every error.
    (void)write_message(options.control_out, error_message("python", embed::error_text(e), true));
  } catch (const std::exception& e) {
    (void)write_message(options.control_out, error_message("internal", e.what(), true));
  }
  return 3;
}

}  // namespace kgate::runtime
