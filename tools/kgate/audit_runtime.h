// The runtime stage of `kgate audit --runtime DEVICE`: each file the static gate approved is judged by
// a runtime server, started once for the audit: `kgate serve` (one long-lived judge, a fresh sandboxed
// worker per file, one file at a time) or, with --ray, `python -m kgate.ray serve` (a Verifier actor
// per GPU of a Ray cluster, as many files at once as there are actors and audit threads). A server
// that dies is started again; the record gets a "runtime" object.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analyzers/audit/audit.h"

namespace kgate::cli {

struct RuntimeStageOptions {
  std::vector<std::string> server;      // the server's command line (serve_client.h's protocol)
  std::vector<std::string> server_env;  // added to its environment ("NAME=value")
  std::filesystem::path tasks_dir;      // where task names resolve
  std::string device = "cuda";
  std::string task;              // every file's task; empty: the file's `# runtime-task:` line
  int seeds = 0;                 // 0: kgate run's default
  std::string profile = "full";  // kgate run --profile
  double timeout_s = 60;
};

// runtime: {"verdict", "reasons": [{"id","message"}], "task", "seconds", "speedup", "roofline",
// "own_kernel_share"} after a run; {"skipped": why} for a rejected file or one without a task;
// {"error": ...} when the server gave no report.
audit::RecordStage make_runtime_stage(const RuntimeStageOptions& options);

// The task a file names on a `# runtime-task: SPEC` line among its first 40 lines ("" when none).
std::string runtime_task_line(const std::filesystem::path& file);

}  // namespace kgate::cli
