// `kgate tasks lint [PATH...]`: option parsing, runtime::lint_tasks, text or JSON report. Wiring only.
#include "tools/kgate/cmd_tasks.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/data_dir.h"
#include "runtime/input_contract.h"
#include "runtime/tasklint.h"
#include "tools/kgate/runtime_commands.h"

namespace fs = std::filesystem;

namespace kgate::cli {
namespace {

struct TasksLintOptions {
  std::vector<std::string> paths;
  std::string rules_dir;
  std::string format = "text";
  std::uint64_t seed = 0;
};

// --rules-dir, else the default rules (as `kgate check`); tasks/ is its sibling.
fs::path rules_dir(const TasksLintOptions& o) {
  return o.rules_dir.empty() ? kgate::default_rules_dir() : fs::path(o.rules_dir);
}

nlohmann::json to_json(const std::vector<runtime::TaskLint>& lints) {
  nlohmann::json tasks = nlohmann::json::array();
  std::size_t failing = 0;
  for (const auto& lint : lints) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : lint.findings) findings.push_back({{"check", f.check}, {"message", f.message}});
    failing += lint.findings.empty() ? 0 : 1;
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& spec : lint.inferred_inputs)
      inputs.push_back({{"name", spec.name}, {"contract", runtime::describe(spec)}});
    tasks.push_back({{"path", lint.path.string()},
                     {"name", lint.name},
                     {"ok", lint.findings.empty()},
                     {"findings", findings},
                     {"measured", lint.measured},
                     {"inferred_inputs", inputs}});
  }
  return {{"tasks", tasks}, {"summary", {{"tasks", lints.size()}, {"failing", failing}}}};
}

int run(const TasksLintOptions& o) {
  const fs::path rules = rules_dir(o);
  std::vector<fs::path> paths;
  for (const auto& p : o.paths) paths.emplace_back(p);
  if (paths.empty()) paths.push_back(rules.parent_path() / "tasks");
  auto targets = runtime::lint_targets(paths);
  if (!targets) {
    std::cerr << "kgate: error: tasks lint: " << targets.error() << "\n";
    return 2;
  }
  runtime::LintOptions options;
  options.policies_dir = rules / "policies";
  options.seed = o.seed;
  auto lints = runtime::lint_tasks(*targets, options);
  if (!lints) {
    std::cerr << "kgate: error: tasks lint: " << lints.error() << "\n";
    return 2;
  }
  std::size_t failing = 0;
  for (const auto& lint : *lints) failing += lint.findings.empty() ? 0 : 1;
  if (o.format == "json") {
    std::cout << to_json(*lints).dump() << "\n";
  } else {
    for (const auto& lint : *lints) {
      for (const auto& f : lint.findings)
        std::cout << lint.path.string() << ": " << f.check << ": " << f.message << "\n";
      for (const auto& spec : lint.inferred_inputs)
        std::cout << lint.path.string() << ": input " << spec.name << ": " << runtime::describe(spec) << "\n";
    }
    std::cout << "kgate tasks lint: " << lints->size() << " task(s), " << failing << " with findings\n";
  }
  return failing == 0 ? 0 : 1;
}

}  // namespace

TasksCommand add_tasks_command(CLI::App& parent) {
  auto options = std::make_shared<TasksLintOptions>();
  CLI::App* tasks = parent.add_subcommand("tasks", runtime_command_summary("tasks"));
  tasks->require_subcommand(1);
  CLI::App* lint = tasks->add_subcommand(
      "lint", "reject degenerate tasks (schema, symbols, M4, M5, determinism, FLOP/byte formulas)");
  lint->add_option("PATH", options->paths,
                   "task directories, task.yaml files, or directories of tasks (default: tasks/)");
  lint->add_option(
      "--rules-dir", options->rules_dir,
      "rules directory whose policies/ the manifests name (default: KGATE_RULES_DIR or the source tree's)");
  lint->add_option("--format", options->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  lint->add_option("--seed", options->seed, "seed of the reference runs");
  return {tasks, [options] { return run(*options); }};
}

}  // namespace kgate::cli
