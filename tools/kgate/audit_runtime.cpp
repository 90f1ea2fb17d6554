// `kgate audit --runtime`: runs `kgate run --format json` per approved file and keeps its verdict,
// speedup and roofline in the audit record (the HTML report plots them).
#include "tools/kgate/audit_runtime.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include "analyzers/core/task_manifest.h"

extern char** environ;

namespace kgate::cli {
namespace {

struct Captured {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs argv with stdout on a pipe and stderr in an unlinked temporary file (no shell, no deadlock).
Captured capture(const std::vector<std::string>& args) {
  Captured result;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.err = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  char err_path[] = "/tmp/kgate-audit-run-XXXXXX";
  const int err_fd = ::mkstemp(err_path);
  if (err_fd >= 0) ::unlink(err_path);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    if (err_fd >= 0) ::close(err_fd);
    result.err = std::string("cannot start ") + args[0] + ": " + std::strerror(spawned);
    return result;
  }
  std::array<char, 65536> buffer{};
  for (;;) {
    const ssize_t n = ::read(pipe_fds[0], buffer.data(), buffer.size());
    if (n > 0)
      result.out.append(buffer.data(), static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (err_fd >= 0) {
    ::lseek(err_fd, 0, SEEK_SET);
    for (;;) {
      const ssize_t n = ::read(err_fd, buffer.data(), buffer.size());
      if (n <= 0) break;
      result.err.append(buffer.data(), static_cast<std::size_t>(n));
    }
    ::close(err_fd);
  }
  return result;
}

std::string tail(const std::string& text, std::size_t n) {
  return text.size() > n ? text.substr(text.size() - n) : text;
}

}  // namespace

std::string runtime_task_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  static const std::regex line_re(R"(^#\s*runtime-task:\s*(\S+)\s*$)");
  std::string line;
  for (int i = 0; i < 40 && std::getline(in, line); ++i) {
    if (line.size() > 400) continue;
    std::smatch m;
    if (std::regex_match(line, m, line_re)) return m[1].str();
  }
  return "";
}

audit::RecordStage make_runtime_stage(const RuntimeStageOptions& options) {
  auto lock = std::make_shared<std::mutex>();
  return [options, lock](const BatchItem& item, const FileResult&, nlohmann::json& record) {
    if (record.value("verdict", "") != "pass") {
      record["runtime"] = {{"skipped", "rejected by the static gate"}};
      return;
    }
    std::string spec = options.task.empty() ? runtime_task_line(item.path) : options.task;
    if (spec.empty()) {
      record["runtime"] = {{"skipped", "no task: give --task or a '# runtime-task: Category/name' line"}};
      return;
    }
    // Annotations written relative to a checkout ("tasks/Activation/gelu") resolve by name too.
    if (spec.rfind("tasks/", 0) == 0 && !std::filesystem::exists(spec)) spec = spec.substr(6);
    auto where = runtime::find_task(options.tasks_dir, spec);
    if (!where) {
      record["runtime"] = {{"skipped", "task " + spec + ": " + where.error()}};
      return;
    }
    std::vector<std::string> args{
        options.kgate.string(), "run",      "--task", where->string(), "--device",
        options.device,         "--format", "json",   "--timeout",     std::to_string(options.timeout_s)};
    if (options.seeds > 0) args.insert(args.end(), {"--seeds", std::to_string(options.seeds)});
    args.insert(args.end(), {"--profile", options.profile});
    args.push_back(item.path);
    Captured run;
    {
      // One judge at a time: each holds a GPU (or all cores) and, on cuda, a large arena.
      std::lock_guard<std::mutex> guard(*lock);
      run = capture(args);
    }
    auto report = nlohmann::json::parse(run.out, nullptr, false);
    if (report.is_discarded() || !report.is_object() || !report.contains("verdict")) {
      record["runtime"] = {
          {"task", spec},
          {"error", "kgate run exited " + std::to_string(run.status) + " without a report: " + tail(run.err, 600)}};
      return;
    }
    nlohmann::json runtime{{"task", spec},
                           {"verdict", report["verdict"]},
                           {"reasons", report.value("reasons", nlohmann::json::array())},
                           {"seconds", report.value("seconds", 0.0)},
                           {"profile", report.value("profile", std::string())}};
    if (report.contains("timing") && report["timing"].is_object()) {
      const auto& t = report["timing"];
      if (t.contains("speedup")) runtime["speedup"] = t["speedup"];
      if (t.contains("roofline")) runtime["roofline"] = t["roofline"];
      if (t.contains("own_kernel_share")) runtime["own_kernel_share"] = t["own_kernel_share"];
    }
    record["runtime"] = std::move(runtime);
  };
}

}  // namespace kgate::cli
