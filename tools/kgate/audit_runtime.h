// The runtime stage of `kgate audit --runtime DEVICE`: each file the static gate approved is judged by
// `kgate run` in a process of its own (the judge embeds one Python interpreter per process, and a
// crash stays with that file), one at a time; the record gets a "runtime" object.
#pragma once

#include <filesystem>
#include <string>

#include "analyzers/audit/audit.h"

namespace kgate::cli {

struct RuntimeStageOptions {
  std::filesystem::path kgate;      // this executable
  std::filesystem::path tasks_dir;  // where task names resolve
  std::string device = "cuda";
  std::string task;              // every file's task; empty: the file's `# runtime-task:` line
  int seeds = 0;                 // 0: kgate run's default
  std::string profile = "full";  // kgate run --profile
  double timeout_s = 60;
};

// runtime: {"verdict", "reasons": [{"id","message"}], "task", "seconds", "speedup", "roofline",
// "own_kernel_share"} after a run; {"skipped": why} for a rejected file or one without a task;
// {"error": ...} when kgate run gave no report.
audit::RecordStage make_runtime_stage(const RuntimeStageOptions& options);

// The task a file names on a `# runtime-task: SPEC` line among its first 40 lines ("" when none).
std::string runtime_task_line(const std::filesystem::path& file);

}  // namespace kgate::cli
