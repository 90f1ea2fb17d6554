// kgate-runtime: the runtime stage's subcommands (run, tasks, calibrate, speedup, serve), linked against
// LibTorch, Python and CUDA. `kgate NAME ...` execs this binary with the same arguments
// (tools/kgate/runtime_commands.h says why it is a binary of its own); it can also be run directly.
#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "tools/kgate/cmd_calibrate.h"
#include "tools/kgate/cmd_run.h"
#include "tools/kgate/cmd_serve.h"
#include "tools/kgate/cmd_speedup.h"
#include "tools/kgate/cmd_tasks.h"

int main(int argc, char** argv) {
  CLI::App app{"KernelGate runtime stage (started by kgate for run, tasks, calibrate, speedup and serve)", "kgate"};
  app.set_version_flag("--version", std::string("kgate ") + KGATE_VERSION);
  app.require_subcommand(1);
  const kgate::cli::RegisteredCommand run_cmd = kgate::cli::add_run_command(app);
  const kgate::cli::TasksCommand tasks_cmd = kgate::cli::add_tasks_command(app);
  const kgate::cli::RegisteredCommand calibrate_cmd = kgate::cli::add_calibrate_command(app);
  const kgate::cli::RegisteredCommand speedup_cmd = kgate::cli::add_speedup_command(app);
  const kgate::cli::RegisteredCommand serve_cmd = kgate::cli::add_serve_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // as kgate: --help exits 0, any other parse error is a usage error
  }
  try {
    if (run_cmd.app->parsed()) return run_cmd.run();
    if (tasks_cmd.app->parsed()) return tasks_cmd.run();
    if (calibrate_cmd.app->parsed()) return calibrate_cmd.run();
    if (speedup_cmd.app->parsed()) return speedup_cmd.run();
    if (serve_cmd.app->parsed()) return serve_cmd.run();
  } catch (const std::exception& e) {
    std::cerr << "kgate: internal error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
