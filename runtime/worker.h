// The worker process (untrusted side): sandboxes itself, embeds Python, imports the candidate under a
// private module name and serves the judge's load/build/call requests over the control pipe.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "runtime/sandbox.h"

namespace kgate::runtime {

struct WorkerOptions {
  int control_in = 3;   // judge -> worker
  int control_out = 4;  // worker -> judge
  int arena_fd = 5;     // the memfd arena (CPU runs)
  std::filesystem::path private_dir;
  bool sandbox = true;
  std::string device = "cpu";  // "cuda": /dev/shm for the IPC arena, and the Triton toolchain may run
  WorkerLimits limits;
};

// The whole life of a worker; returns its exit code.
int run_worker(const WorkerOptions&);

}  // namespace kgate::runtime
