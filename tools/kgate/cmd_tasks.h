// `kgate tasks lint [PATH...]`: the task-suite linter (registered by main.cpp when KGATE_HAVE_RUNTIME).
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace kgate::cli {

struct TasksCommand {
  CLI::App* app;
  std::function<int()> run;  // the exit code: 0 clean, 1 findings, 2 usage error or no interpreter
};

TasksCommand add_tasks_command(CLI::App& parent);

}  // namespace kgate::cli
