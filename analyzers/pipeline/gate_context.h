// The per-file context of the static gate, resolved in one place for every caller (the CLI, the
// audit, the Python module): the nearest .kgate.yaml (or --config), the policy (--policy, --task's
// manifest, the config, else the file kind's default), the harness profile (--harness, the config,
// else detected per file) and the entry functions a config adds. Not thread-safe: resolve contexts
// first, then analyse (the AnalysisContexts it hands out stay valid and are read-only).
#pragma once

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/core/config.h"
#include "analyzers/core/data_dir.h"
#include "analyzers/core/status.h"
#include "analyzers/harness/harness.h"
#include "analyzers/pipeline/contract.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

// What the caller fixes for every file (command-line options).
struct GateOptions {
  std::string task;          // its manifest's policy applies to every file
  std::string policy;        // overrides every file's own
  std::string harness;       // overrides every file's detection ("" or "auto": detect)
  std::string config_file;   // instead of the nearest .kgate.yaml
  bool find_configs = true;  // false: no .kgate.yaml is looked up (config_file still applies)
  std::string contract;      // the dtype contract of every file ("bf16"); empty: --task's, else per file
  ingest::Limits limits;
  std::vector<std::string> only;
  std::string cpp_engine = "auto";
  std::string ptx = "auto";
  std::string compile_commands;
};

// Loads `rules_dir`/harnesses, or the shipped profiles when that folder does not exist; an error
// names the directory and the problem.
Result<HarnessSet> load_harness_profiles(const std::filesystem::path& rules_dir);

class GateContext {
 public:
  // `rules` and `harnesses` must outlive the GateContext. Validates --task/--policy/--harness.
  static Result<GateContext> make(const GateOptions& options, const RuleSet& rules, const HarnessSet& harnesses,
                                  const std::filesystem::path& rules_dir);

  // The nearest .kgate.yaml of a file, memoised per directory.
  std::string nearest_config(const std::string& path);
  Result<const Config*> config_for(const std::string& path);
  std::string policy_name(const Config& config, const std::string& path) const;
  // The forced harness profile for files under `config` ("auto" when detected per file).
  std::string harness_name(const Config& config) const;
  Result<const AnalysisContext*> context_for(const std::string& path);

 private:
  GateContext(const GateOptions& options, const RuleSet& rules, const HarnessSet& harnesses,
              std::filesystem::path rules_dir)
      : options_(options), rules_(rules), harnesses_(harnesses), rules_dir_(std::move(rules_dir)) {}

  GateOptions options_;
  const RuleSet& rules_;
  const HarnessSet& harnesses_;
  std::filesystem::path rules_dir_;
  std::string forced_policy_;
  DtypeContract forced_contract_;  // --contract, else --task's manifest
  // --task's reference, summarised: the entry's output positions and parameter names come from it.
  std::shared_ptr<const ReferenceSummary> task_reference_;
  std::shared_ptr<ReferenceSummaries> reference_summaries_ = std::make_shared<ReferenceSummaries>();
  std::map<std::string, Config> configs_;
  std::map<std::string, Policy> policies_;
  std::map<std::pair<std::string, std::string>, const AnalysisContext*> contexts_;
  std::deque<AnalysisContext> storage_;  // stable addresses for BatchItem
  std::map<std::string, std::string> nearest_;
};

}  // namespace kgate
