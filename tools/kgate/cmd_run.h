// `kgate run`: the runtime stage on one submission (registered by main.cpp when KGATE_HAVE_RUNTIME).
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace kgate::cli {

struct RegisteredCommand {
  CLI::App* app;
  std::function<int()> run;  // the exit code: 0 pass, 1 any other verdict, 2 usage/config/internal error
};

RegisteredCommand add_run_command(CLI::App& parent);

}  // namespace kgate::cli
