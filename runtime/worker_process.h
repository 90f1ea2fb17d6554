// The judge's handle on one worker process: start it with a clean environment in its own process
// group, exchange control messages under a wall-clock limit, kill it, and say how it ended.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"
#include "runtime/protocol.h"
#include "runtime/sandbox.h"

namespace kgate::runtime {

struct WorkerSpawn {
  std::filesystem::path executable;
  std::filesystem::path private_dir;  // the worker's cwd, HOME and TMPDIR, and its only writable place
  std::filesystem::path log;          // the worker's stdout and stderr (never parsed: only shown)
  int arena_fd = -1;                  // memfd for CPU runs, -1 otherwise
  bool sandbox = true;
  std::string device = "cpu";
  WorkerLimits limits;
};

class WorkerProcess {
 public:
  static Result<WorkerProcess> spawn(const WorkerSpawn&);
  WorkerProcess(WorkerProcess&& other) noexcept;
  WorkerProcess& operator=(WorkerProcess&&) = delete;
  WorkerProcess(const WorkerProcess&) = delete;
  ~WorkerProcess();

  Status send(const nlohmann::json& message);
  MessageRead receive(int timeout_ms);
  void kill();  // SIGKILL to the worker's process group
  // Reaps the worker (killing it if it has not ended within grace_ms) and describes its end:
  // "killed by signal 11 (SIGSEGV)", "exited with code 0".
  std::string reap(int grace_ms);
  bool alive() const { return pid_ > 0; }
  // Whether the process has not ended yet (without reaping it: reap() still describes its end).
  bool running() const;
  // Lowers the worker's CPU-time limit (RLIMIT_CPU, soft and hard) to `seconds` of its whole life: a
  // worker started ahead with a larger limit then serves a run that wants less. Raising is not
  // possible without privilege, and is never asked for.
  Status lower_cpu_limit(std::uint64_t seconds);

 private:
  WorkerProcess(pid_t pid, int to_worker, int from_worker)
      : pid_(pid), to_worker_(to_worker), from_worker_(from_worker) {}
  pid_t pid_ = -1;
  int to_worker_ = -1;
  int from_worker_ = -1;
};

}  // namespace kgate::runtime
