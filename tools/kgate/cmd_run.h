// `kgate run`: the runtime stage on one submission (registered by main.cpp when KGATE_HAVE_RUNTIME).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analyzers/core/status.h"
#include "runtime/judge.h"

namespace kgate::cli {

struct RegisteredCommand {
  CLI::App* app;
  std::function<int()> run;  // the exit code: 0 pass, 1 any other verdict, 2 usage/config/internal error
};

RegisteredCommand add_run_command(CLI::App& parent);

// What `kgate run` was asked (its options; `kgate-runtime serve` reads the same from each request).
struct RunCommandOptions {
  std::string task;
  std::string submission;
  std::string device = "cpu";
  int seeds = 0;
  std::vector<std::string> distributions;
  bool public_only = false;
  std::string format = "text";
  double timeout_s = 60;
  std::string cache_dir;
  std::size_t arena_mib = 0;  // 0: auto (runtime::RunOptions::arena_bytes)
  bool no_sandbox = false;
  int timed_calls = -1;  // -1: the profile's
  bool compare_compile = false;
  std::string profile = "full";
  bool keep_parameters = false;
  bool quick = false;
  int memory_wait_s = 600;  // runtime::RunOptions::memory_wait_s
};

// The judge's options for them (the worker found beside this executable); an unknown profile, device
// or distribution is an error.
Result<runtime::RunOptions> to_run_options(const RunCommandOptions& options);

// `kgate run`'s exit code for a verdict: 0 pass, 3 harness-error, 1 any other.
int exit_code(runtime::Verdict verdict);

}  // namespace kgate::cli
