// `kgate run --task TASK SUBMISSION`: option parsing, the judge, and the report. Wiring only.
#include "tools/kgate/cmd_run.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "runtime/judge.h"
#include "runtime/task.h"
#include "tools/kgate/companion_path.h"
#include "tools/kgate/runtime_commands.h"

namespace fs = std::filesystem;

namespace kgate::cli {
namespace {

fs::path worker_executable() { return companion_path("KGATE_WORKER", "kgate-worker", KGATE_WORKER_PATH); }

int run(const RunCommandOptions& o) {
  auto task = runtime::load_task(o.task);
  if (!task) {
    std::cerr << "kgate: error: --task: " << task.error() << "\n";
    return 2;
  }
  std::error_code ec;
  if (!fs::is_regular_file(o.submission, ec)) {
    std::cerr << "kgate: error: no such submission file: " << o.submission << "\n";
    return 2;
  }
  auto options = to_run_options(o);
  if (!options) {
    std::cerr << "kgate: error: " << options.error() << "\n";
    return 2;
  }
  auto report = runtime::judge_submission(*task, o.submission, *options);
  if (!report) {
    std::cerr << "kgate: error: " << report.error() << "\n";
    return 2;
  }
  if (o.format == "json")
    std::cout << runtime::to_json(*report).dump() << "\n";
  else
    runtime::write_text(std::cout, *report);
  return exit_code(report->verdict);
}

}  // namespace

int exit_code(runtime::Verdict verdict) {
  if (verdict == runtime::Verdict::harness_error) return 3;
  return verdict == runtime::Verdict::pass ? 0 : 1;
}

Result<runtime::RunOptions> to_run_options(const RunCommandOptions& o) {
  runtime::RunOptions options;
  const auto profile = runtime::parse_run_profile(o.profile);
  if (!profile) return Error{"unknown profile '" + o.profile + "' (full or quick)"};
  options.profile = o.quick ? runtime::RunProfile::quick : *profile;
  if (o.device != "cpu" && o.device != "cuda") return Error{"unknown device '" + o.device + "' (cpu or cuda)"};
  options.device = o.device;
  options.seeds = o.seeds;
  for (const auto& name : o.distributions) {
    auto d = runtime::parse_distribution(name);
    if (!d) return Error{"--distributions: unknown distribution '" + name + "'"};
    options.distributions.push_back(*d);
  }
  options.hidden_shapes = !o.public_only;
  options.call_timeout_ms = static_cast<int>(o.timeout_s * 1000);
  options.sandbox = !o.no_sandbox;
  options.worker_executable = worker_executable();
  options.cache_dir = o.cache_dir;
  options.arena_bytes = o.arena_mib << 20;
  options.timed_calls = o.timed_calls;
  options.compare_compile = o.compare_compile;
  options.redraw_parameters = !o.keep_parameters;
  options.memory_wait_s = o.memory_wait_s;
  return options;
}

RegisteredCommand add_run_command(CLI::App& parent) {
  auto options = std::make_shared<RunCommandOptions>();
  CLI::App* cmd = parent.add_subcommand(
      "run",
      runtime_command_summary("run") +
          ".\n"
          "Cases: seeds x distributions x shape sets (public, then hidden) x the task's dtypes. Profile full (the\n"
          "default): on cuda 5 seeds, on cpu 1 seed (CPU runs stay short); all six distributions, every shape set,\n"
          "30 timed calls. Profile quick (--quick; RL reward loops): 1 seed, normal and outlier inputs, the public\n"
          "shape sets and the hidden set with the most odd sizes, 10 timed calls. Explicit options win.\n"
          "Exit code: 0 pass, 1 fail/crashed/timeout/sandbox-violation, 2 usage, task or internal error,\n"
          "3 harness-error (a limit or fault of the harness met while judging: the arena, GPU memory, a worker that "
          "failed before the submission was loaded; no verdict on the submission).");
  cmd->add_option("--task", options->task, "task directory, task.yaml, or a bare KernelBench .py file")->required();
  cmd->add_option("SUBMISSION", options->submission, "the KernelBench-format submission (ModelNew)")->required();
  cmd->add_option("--device", options->device, "where to run")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--profile", options->profile, "how much to check: full or quick")
      ->check(CLI::IsMember({"full", "quick"}))
      ->capture_default_str();
  cmd->add_flag("--quick", options->quick, "the same as --profile quick");
  cmd->add_option("--seeds", options->seeds, "secret seeds per distribution (0: the profile's)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--distributions", options->distributions,
                  "only these: normal, uniform, outlier, special, tiny, huge (default: the profile's)");
  cmd->add_flag("--public-shapes-only", options->public_only, "skip the task's hidden shape sets");
  cmd->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--timeout", options->timeout_s, "wall-clock seconds for one build or forward call")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--cache-dir", options->cache_dir,
                  "compile cache (default: $KGATE_CACHE_DIR or ~/.cache/kgate/compile)");
  cmd->add_option("--arena-mib", options->arena_mib,
                  "size of the shared input/output arena (0: 1 GiB on cpu; on cuda 8 GiB or a quarter of the free GPU "
                  "memory, the smaller)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--memory-wait", options->memory_wait_s,
                  "cuda: seconds to wait for the GPU memory the run needs while other runs hold it (past it the run "
                  "goes ahead, and running out is a harness error)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_flag("--no-sandbox", options->no_sandbox, "run the worker without Landlock and seccomp (debugging only)");
  cmd->add_option(
         "--timed-calls", options->timed_calls,
         "cuda: calls timed after every case passed (fresh inputs, each checked; after a random warm-up); 0: no "
         "timing (default: the profile's, full 30, quick 10)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--compare-compile", options->compare_compile, "cuda: also time torch.compile of the reference");
  cmd->add_flag(
      "--keep-parameters", options->keep_parameters,
      "do not redraw the models' parameters under the secret seed (both keep what the shared init seed gave)");
  return {cmd, [options] { return run(*options); }};
}

}  // namespace kgate::cli
