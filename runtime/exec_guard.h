// What a CUDA worker may execute. Triton's JIT runs ptxas and a C compiler, so on CUDA the syscall filter
// lets execve through and Landlock allows EXECUTE on the toolchain only; a refused exec would then show
// as the candidate's PermissionError (a crash). This guard, a CPython audit hook installed before the
// interpreter starts (it cannot be removed from Python), turns every other exec, spawn or os.system
// into the same sandbox-violation verdict a CPU worker's seccomp trap gives.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kgate::runtime {

// `allowed`: executables and directories whose executables may run (jit_toolchain_executables()).
// Call before embed::start_python(); once per process. Until armed, a refused exec raises PermissionError
// in its caller (torch's and Triton's start-up probes, e.g. platform's `file`, handle that, as they
// handled Landlock's refusal); armed, it ends the worker with a sandbox violation.
void install_exec_guard(std::vector<std::filesystem::path> allowed);
// Arms the guard: from now on the code that runs is the candidate's. Called before the import.
void arm_exec_guard();

// Whether `program` (as a Popen or exec call names it: absolute, relative, or a bare name looked up in
// `path_env`) resolves to one of `allowed`. Exposed for the unit tests.
bool exec_allowed(const std::string& program, const std::string& path_env,
                  const std::vector<std::filesystem::path>& allowed);

}  // namespace kgate::runtime
