// `kgate-runtime serve`: a long-lived judge for streams of candidates (kgate.Verifier, kgate.ray).
// One JSON request per line on stdin, one JSON answer per line on stdout, in order; the process keeps
// its embedded Python with torch imported, the CUDA context, the loaded tasks and the compile cache
// between requests. Each candidate still gets a fresh sandboxed worker (runtime::judge_submission),
// started ahead (runtime::prepare_worker): the server keeps a few spare workers, and starts a replacement
// as soon as a request takes one, so the replacement's interpreter, torch import and CUDA set-up overlap
// the runs before its own.
#include "tools/kgate/cmd_serve.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include "analyzers/core/data_dir.h"
#include "runtime/embed.h"
#include "runtime/judge.h"
#include "runtime/task.h"
#include "tools/kgate/runtime_commands.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace kgate::cli {
namespace {

struct ServeOptions {
  std::string device = "cpu";
  std::string profile = "quick";
  std::string tasks_dir;
  std::string cache_dir;
  bool warm = false;
  bool no_sandbox = false;
  // The requests' default timeout. A spare worker's CPU limit is derived from it: a request with a shorter
  // timeout lowers the spare's limit to its own, one with a longer timeout cannot use a spare (kgate.Verifier
  // passes its own timeout here for that reason).
  double timeout_s = 60;
  // Spare workers started ahead of the requests (0, --no-prepare: each run starts its own, as kgate run).
  // The default, -1, is 3 on cuda (a torch import takes about 5 s on an H200 host, a quick run past it
  // about 1 s) and 1 on cpu (there the spares' imports compete with the runs for the same cores).
  int prepare = -1;
};

int spare_workers(const ServeOptions& o) { return o.prepare >= 0 ? o.prepare : o.device == "cpu" ? 1 : 3; }

// Answers go to a descriptor of their own: stdout itself is pointed at stderr, so that whatever the
// judge's Python (a reference's print) or a library writes there never lands inside the protocol.
class AnswerChannel {
 public:
  AnswerChannel() : fd_(::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) {
    std::cout.flush();
    if (fd_ >= 0) ::dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  bool ok() const { return fd_ >= 0; }
  bool send(const json& answer) {
    std::string line = answer.dump(-1, ' ', false, json::error_handler_t::replace);
    line += '\n';
    std::size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

 private:
  int fd_;
};

// Tasks stay loaded while their manifest and reference are unchanged on disk.
class TaskCache {
 public:
  explicit TaskCache(fs::path tasks_dir) : tasks_dir_(std::move(tasks_dir)) {}

  Result<const runtime::Task*> get(const std::string& spec) {
    auto where = runtime::find_task(tasks_dir_, spec);
    if (!where) return Error{where.error()};
    const std::string key = fs::absolute(*where).lexically_normal().string();
    auto found = entries_.find(key);
    if (found != entries_.end() && found->second.stamp == stamp(*where, found->second.task.reference))
      return &found->second.task;
    auto loaded = runtime::load_task(*where);
    if (!loaded) return Error{loaded.error()};
    Entry entry{std::move(*loaded), {}};
    entry.stamp = stamp(*where, entry.task.reference);
    auto [it, inserted] = entries_.insert_or_assign(key, std::move(entry));
    (void)inserted;
    return &it->second.task;
  }

 private:
  struct Entry {
    runtime::Task task;
    std::string stamp;
  };
  static std::string stamp(const fs::path& where, const fs::path& reference) {
    std::string out;
    for (const fs::path& p : {where, where / "task.yaml", reference}) {
      std::error_code ec;
      const auto time = fs::last_write_time(p, ec);
      out += ec ? std::string("-") : std::to_string(time.time_since_epoch().count());
      out += ';';
    }
    return out;
  }
  fs::path tasks_dir_;
  std::map<std::string, Entry> entries_;
};

// Starts the embedded Python and imports torch (and on cuda creates the context) before the first request.
json warm_up(const std::string& device) {
  const auto start = std::chrono::steady_clock::now();
  if (Status s = runtime::embed::start_python(); !s) return {{"error", s.message()}};
  try {
    pybind11::module_ torch = pybind11::module_::import("torch");
    if (device == "cuda") torch.attr("cuda").attr("init")();
  } catch (const pybind11::error_already_set& e) {
    return {{"error", "warming up: " + runtime::embed::error_text(e)}};
  }
  return {{"warm_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
}

template <typename T>
void read_field(const json& request, const char* name, T& into) {
  if (request.contains(name) && !request[name].is_null()) into = request[name].get<T>();
}

RunCommandOptions defaults(const ServeOptions& serve) {
  RunCommandOptions o;
  o.device = serve.device;
  o.profile = serve.profile;
  o.cache_dir = serve.cache_dir;
  o.no_sandbox = serve.no_sandbox;
  o.timeout_s = serve.timeout_s;
  return o;
}

// The worker of the next request with the server's defaults, started while the server waits.
std::unique_ptr<runtime::PreparedWorker> prepare_next(const ServeOptions& serve) {
  auto options = to_run_options(defaults(serve));
  if (!options) return nullptr;
  auto prepared = runtime::prepare_worker(*options);
  if (!prepared) {
    std::cerr << "kgate: serve: could not start a worker ahead (the next run starts its own): " << prepared.error()
              << "\n";
    return nullptr;
  }
  return std::move(*prepared);
}

// One request: its options over the server's defaults, the judge (with the worker started ahead,
// when it fits), the answer.
json answer(const json& request, const ServeOptions& serve, TaskCache& tasks,
            std::unique_ptr<runtime::PreparedWorker> prepared) {
  json out{{"id", request.value("id", json())}};
  RunCommandOptions o = defaults(serve);
  try {
    read_field(request, "task", o.task);
    read_field(request, "submission", o.submission);
    read_field(request, "device", o.device);
    read_field(request, "profile", o.profile);
    read_field(request, "seeds", o.seeds);
    read_field(request, "distributions", o.distributions);
    read_field(request, "public_shapes_only", o.public_only);
    read_field(request, "timeout_s", o.timeout_s);
    read_field(request, "timed_calls", o.timed_calls);
    read_field(request, "compare_compile", o.compare_compile);
    read_field(request, "keep_parameters", o.keep_parameters);
  } catch (const json::exception& e) {
    out["exit"] = 2;
    out["error"] = std::string("malformed request: ") + e.what();
    return out;
  }
  const auto fail = [&](const std::string& message) {
    out["exit"] = 2;
    out["error"] = message;
    return out;
  };
  if (o.task.empty()) return fail("the request names no task");
  if (o.timeout_s <= 0) return fail("timeout_s must be positive");
  std::error_code ec;
  if (!fs::is_regular_file(o.submission, ec)) return fail("no such submission file: " + o.submission);
  auto task = tasks.get(o.task);
  if (!task) return fail("task " + o.task + ": " + task.error());
  auto options = to_run_options(o);
  if (!options) return fail(options.error());
  auto report = runtime::judge_submission(**task, o.submission, *options, std::move(prepared));
  if (!report) return fail(report.error());
  out["exit"] = exit_code(report->verdict);
  out["report"] = runtime::to_json(*report);
  return out;
}

int serve(const ServeOptions& options) {
  AnswerChannel channel;
  if (!channel.ok()) {
    std::cerr << "kgate: error: serve: cannot duplicate stdout\n";
    return 2;
  }
  const fs::path tasks_dir =
      options.tasks_dir.empty() ? default_rules_dir().parent_path() / "tasks" : fs::path(options.tasks_dir);
  TaskCache tasks(tasks_dir);
  json ready{{"ready", true}, {"version", KGATE_VERSION}, {"device", options.device}, {"profile", options.profile}};
  if (options.warm) ready.update(warm_up(options.device));
  const auto spares_wanted = static_cast<std::size_t>(spare_workers(options));
  std::deque<std::unique_ptr<runtime::PreparedWorker>> spares;
  const auto top_up = [&] {
    while (spares.size() < spares_wanted) {
      auto worker = prepare_next(options);
      if (!worker) break;  // said on stderr; the runs start their own
      spares.push_back(std::move(worker));
    }
  };
  top_up();
  ready["spare_workers"] = spares.size();
  if (!channel.send(ready)) return 2;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json request = json::parse(line, nullptr, false);
    json reply;
    if (request.is_discarded() || !request.is_object()) {
      reply = {{"id", nullptr}, {"exit", 2}, {"error", "a request is one JSON object per line"}};
    } else {
      // The oldest spare is this run's; its replacement starts now and imports while the run goes on.
      std::unique_ptr<runtime::PreparedWorker> mine;
      if (!spares.empty()) {
        mine = std::move(spares.front());
        spares.pop_front();
      }
      top_up();
      try {
        reply = answer(request, options, tasks, std::move(mine));
      } catch (const std::exception& e) {
        reply = {
            {"id", request.value("id", json())}, {"exit", 2}, {"error", std::string("internal error: ") + e.what()}};
      }
    }
    if (!channel.send(reply)) return 2;  // the client went away
  }
  return 0;
}

}  // namespace

RegisteredCommand add_serve_command(CLI::App& parent) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* cmd = parent.add_subcommand(
      "serve",
      runtime_command_summary("serve") +
          ".\n"
          "Reads one JSON request per line on stdin: {\"id\": ..., \"submission\": PATH, \"task\": SPEC} and, "
          "optionally,\n"
          "device, profile, seeds, distributions, public_shapes_only, timeout_s, timed_calls, compare_compile,\n"
          "keep_parameters (as kgate run's options). Answers one JSON line per request on stdout, in order:\n"
          "{\"id\", \"exit\" (kgate run's exit code), \"report\" (kgate run --format json)} or {\"id\", \"exit\": 2, "
          "\"error\"}.\n"
          "The first line out is {\"ready\": true, \"spare_workers\": N, ...}. Every candidate gets a fresh sandboxed\n"
          "worker, started ahead (--prepare spares, with the server's defaults: a request with another device or\n"
          "a longer timeout starts its own); the judge, its Python with torch, the CUDA context, loaded tasks and the "
          "compile\n"
          "cache stay. Ends at end of input.");
  cmd->add_option("--device", options->device, "the default device of requests")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--profile", options->profile, "the default profile of requests: full or quick")
      ->check(CLI::IsMember({"full", "quick"}))
      ->capture_default_str();
  cmd->add_option("--tasks-dir", options->tasks_dir, "where task names resolve (default: the bundled tasks)");
  cmd->add_option("--cache-dir", options->cache_dir,
                  "compile cache (default: $KGATE_CACHE_DIR or ~/.cache/kgate/compile)");
  cmd->add_option("--timeout", options->timeout_s,
                  "the requests' default wall-clock seconds for one build or forward call (the spares' limits "
                  "follow it: a request with a longer timeout_s starts its own worker)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--warm", options->warm, "start Python, import torch (and on cuda make the context) before ready");
  cmd->add_flag("--no-sandbox", options->no_sandbox, "run workers without Landlock and seccomp (debugging only)");
  cmd->add_option("--prepare", options->prepare,
                  "spare workers started ahead of the requests; a request takes the oldest and its replacement "
                  "starts at once (default: 3 on cuda, 1 on cpu)")
      ->check(CLI::Range(0, 16));
  cmd->add_flag_callback(
      "--no-prepare", [options] { options->prepare = 0; },
      "no spare workers: each run starts its own, as kgate run (--prepare 0)");
  return {cmd, [options] { return serve(*options); }};
}

}  // namespace kgate::cli
