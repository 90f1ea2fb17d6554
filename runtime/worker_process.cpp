// Starting, talking to and ending a worker process.
#include "runtime/worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "analyzers/core/wait_status.h"

namespace kgate::runtime {
namespace {

// Environment variables a worker inherits: library lookup and GPU selection only. Nothing else of the
// judge's environment (and no seed: seeds never exist outside the judge's memory).
// KGATE_RUNTIME_PYTHON_DIR: the worker's helpers come from where the judge's come from.
constexpr const char* kPassedThrough[] = {"LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_HOME",
                                          "NVIDIA_VISIBLE_DEVICES", "KGATE_RUNTIME_PYTHON_DIR"};

}  // namespace

Result<WorkerProcess> WorkerProcess::spawn(const WorkerSpawn& spec) {
  int to_worker[2];
  int from_worker[2];
  if (::pipe2(to_worker, O_CLOEXEC) != 0) return Error{std::string("pipe: ") + std::strerror(errno)};
  if (::pipe2(from_worker, O_CLOEXEC) != 0) {
    ::close(to_worker[0]);
    ::close(to_worker[1]);
    return Error{std::string("pipe: ") + std::strerror(errno)};
  }
  const int log_fd = ::open(spec.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);

  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<std::string> args{spec.executable.string(),
                                "--control-in",
                                "3",
                                "--control-out",
                                "4",
                                "--arena-fd",
                                "5",
                                "--private-dir",
                                spec.private_dir.string(),
                                "--device",
                                spec.device,
                                "--cpu-seconds",
                                std::to_string(spec.limits.cpu_seconds),
                                "--address-space",
                                std::to_string(spec.limits.address_space)};
  if (!spec.sandbox) args.emplace_back("--no-sandbox");
  std::vector<std::string> env{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=" + spec.private_dir.string(),
                               "TMPDIR=" + spec.private_dir.string()};
  for (const char* name : kPassedThrough)
    if (const char* value = std::getenv(name)) {
      // The worker starts in its private directory: a relative helper directory is the judge's.
      const bool directory = std::string_view(name) == "KGATE_RUNTIME_PYTHON_DIR" && *value;
      env.push_back(std::string(name) + "=" + (directory ? std::filesystem::absolute(value).string() : value));
    }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    // Move the sources above the targets first so no dup2 below is a no-op that keeps O_CLOEXEC.
    const int in = ::fcntl(to_worker[0], F_DUPFD, 100);
    const int out = ::fcntl(from_worker[1], F_DUPFD, 100);
    const int arena = spec.arena_fd >= 0 ? ::fcntl(spec.arena_fd, F_DUPFD, 100) : ::open("/dev/null", O_RDONLY);
    const int log = log_fd >= 0 ? ::fcntl(log_fd, F_DUPFD, 100) : ::open("/dev/null", O_WRONLY);
    const int nul = ::fcntl(null_fd, F_DUPFD, 100);
    if (in < 0 || out < 0 || arena < 0 || log < 0 || nul < 0) ::_exit(127);
    ::dup2(nul, 0);
    ::dup2(log, 1);
    ::dup2(log, 2);
    ::dup2(in, 3);
    ::dup2(out, 4);
    ::dup2(arena, 5);
    ::close_range(6, ~0U, 0);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  const int fork_errno = errno;
  ::close(to_worker[0]);
  ::close(from_worker[1]);
  if (log_fd >= 0) ::close(log_fd);
  if (null_fd >= 0) ::close(null_fd);
  if (pid < 0) {
    ::close(to_worker[1]);
    ::close(from_worker[0]);
    return Error{std::string("fork: ") + std::strerror(fork_errno)};
  }
  ::setpgid(pid, pid);         // also from the parent, so kill(-pid) works even before the child runs
  ::signal(SIGPIPE, SIG_IGN);  // a dead worker is a verdict, not the judge's death
  return WorkerProcess(pid, to_worker[1], from_worker[0]);
}

WorkerProcess::WorkerProcess(WorkerProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      to_worker_(std::exchange(other.to_worker_, -1)),
      from_worker_(std::exchange(other.from_worker_, -1)) {}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0) {
    kill();
    reap(0);
  }
  if (to_worker_ >= 0) ::close(to_worker_);
  if (from_worker_ >= 0) ::close(from_worker_);
}

Status WorkerProcess::send(const nlohmann::json& message) { return write_message(to_worker_, message); }

bool WorkerProcess::running() const {
  if (pid_ <= 0) return false;
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
}

Status WorkerProcess::lower_cpu_limit(std::uint64_t seconds) {
  if (pid_ <= 0) return Error{"the worker has been reaped"};
  rlimit current{};
  if (::prlimit(pid_, RLIMIT_CPU, nullptr, &current) != 0)
    return Error{std::string("prlimit (read): ") + std::strerror(errno)};
  // The worker may not have applied its own limit yet (it does at start): it then keeps the lower one,
  // since it never raises a hard limit (apply_limits).
  const rlimit wanted{std::min<rlim_t>(current.rlim_cur, seconds), std::min<rlim_t>(current.rlim_max, seconds)};
  if (::prlimit(pid_, RLIMIT_CPU, &wanted, nullptr) != 0) return Error{std::string("prlimit: ") + std::strerror(errno)};
  return Status::ok();
}

MessageRead WorkerProcess::receive(int timeout_ms) { return read_message(from_worker_, timeout_ms); }

void WorkerProcess::kill() {
  if (pid_ > 0) ::kill(-pid_, SIGKILL);
}

std::string WorkerProcess::reap(int grace_ms) {
  if (pid_ <= 0) return "already reaped";
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  pid_t done = 0;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (done == 0) {
    kill();
    done = ::waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  if (done < 0) return "lost (waitpid failed)";
  return describe_wait_status(status);
}

}  // namespace kgate::runtime
