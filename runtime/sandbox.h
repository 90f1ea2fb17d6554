// The worker's sandbox: rlimits, Landlock (writes only in a private directory, no execute, no TCP, no
// signals or abstract sockets outside the worker) and a seccomp-bpf filter whose violations are reported
// by syscall name over the control pipe before the worker dies.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate::runtime {

struct WorkerLimits {
  std::uint64_t cpu_seconds = 600;       // RLIMIT_CPU
  std::uint64_t file_bytes = 64u << 20;  // RLIMIT_FSIZE
  std::uint64_t processes = 4096;        // RLIMIT_NPROC (threads count; root is exempt); 0 leaves it
  std::uint64_t address_space = 0;       // RLIMIT_AS; 0 leaves it (CUDA reserves huge virtual ranges)
};

// What the sandbox could enforce on this kernel; it goes into the verdict JSON.
struct SandboxState {
  bool seccomp = false;
  int landlock_abi = 0;       // 0: Landlock unavailable, the weaker mode (seccomp and rlimits only)
  std::string mode = "none";  // "full", "no-landlock" or "none" (--no-sandbox, for debugging only)
  bool jit_exec = false;      // the Triton toolchain may be executed (CUDA runs with Landlock)
};
nlohmann::json to_json(const SandboxState&);
SandboxState sandbox_state_from_json(const nlohmann::json&);

Status apply_limits(const WorkerLimits&);

// What a CUDA worker needs beyond a CPU one. Triton's JIT execs ptxas and a C compiler: with jit_exec
// the filesystem rules allow EXECUTE on exactly those (jit_toolchain_executables) and the syscall
// filter lets execve and fork through, so Landlock alone decides what may run. torch's CUDA IPC keeps
// a reference count file in /dev/shm, which the worker must open read-write.
struct SandboxExtras {
  bool jit_exec = false;
  bool dev_shm_writable = false;
};

// Triton's ptxas (in the torch Python's site-packages), the C compiler driver and its helpers under
// /usr/lib/gcc, as, ld and the dynamic loader, resolved to real paths; missing ones are left out.
std::vector<std::filesystem::path> jit_toolchain_executables();

// Call while the process has one thread (Landlock binds the calling thread and its future children):
// sets no_new_privs and restricts the filesystem; returns the Landlock ABI used, 0 when Landlock is missing.
Result<int> restrict_filesystem(const std::filesystem::path& private_dir, const SandboxExtras& extras);

// Installs the syscall filter on every thread (TSYNC) and the SIGSYS handler that writes
// {"op":"violation","syscall":NAME} on control_fd and exits. Call after torch is imported. allow_exec
// (only with Landlock in force) drops the traps on execve/execveat/fork/vfork/clone, and re-registering
// SIGSYS then fails with EPERM rather than trapping (the exec'd toolchain inherits the filter).
// The filter also traps mprotect and pkey_mprotect on the worker executable's own image (and the
// 2 MiB below it): its GOT, read-only after start-up (-z now), cannot be made writable again (T6).
Status install_syscall_filter(int control_fd, bool allow_exec);

// Where violations are reported: set as soon as the worker starts, so that one during start-up (before
// the syscall filter) is reported too.
void set_violation_channel(int control_fd);
// Reports {"op":"violation","syscall":what + detail} on the control pipe (once) and exits: for violations
// found outside the syscall filter (the exec audit hook). Async-signal-safe.
[[noreturn]] void report_violation_and_exit(const char* what, const char* detail = "");

}  // namespace kgate::runtime
