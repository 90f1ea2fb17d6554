// `kgate tasks lint [PATH...]`: the task-suite linter (registered by main.cpp when KGATE_HAVE_RUNTIME).
#pragma once

#include <CLI/CLI.hpp>

#include "tools/kgate/cmd_run.h"  // RegisteredCommand

namespace kgate::cli {

RegisteredCommand add_tasks_command(CLI::App& parent);

}  // namespace kgate::cli
