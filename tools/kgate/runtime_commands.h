// The runtime stage's subcommands live in a second executable, kgate-runtime, next to kgate: they link
// LibTorch, Python and CUDA, whose loading and static initialisation cost ~0.4 s per process, which
// the static gate (`check`, `rules`, `audit`, `metrics`, the pre-commit hook) must not pay. `kgate`
// lists them in its help and hands such a command line to kgate-runtime unchanged (execv).
#pragma once

#include <string>
#include <string_view>

namespace kgate::cli {

struct RuntimeCommandName {
  const char* name;
  const char* summary;  // kgate --help's line; `kgate NAME --help` prints the full help
};

inline constexpr RuntimeCommandName kRuntimeCommands[] = {
    {"run", "run the runtime stage: the submission against the task's reference in a sandboxed worker"},
    {"tasks", "the runtime task suite (tasks lint)"},
    {"calibrate", "measure the GPU's bandwidth and compute peaks once and cache them"},
    {"speedup", "fast_p and geometric-mean speedup over kgate run JSON reports, per category"},
    {"serve", "a long-lived judge: kgate run's requests as JSON lines on stdin, reports on stdout"},
};

inline const RuntimeCommandName* find_runtime_command(std::string_view word) {
  for (const auto& command : kRuntimeCommands)
    if (word == command.name) return &command;
  return nullptr;
}

inline bool is_runtime_command(std::string_view word) { return find_runtime_command(word) != nullptr; }

// The summary line of a runtime command, which its own `--help` starts with too.
inline std::string runtime_command_summary(std::string_view name) {
  const RuntimeCommandName* command = find_runtime_command(name);
  return command ? command->summary : "";
}

}  // namespace kgate::cli
