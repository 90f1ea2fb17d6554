// Gate: the static gate held in memory for in-process callers (the Python module): the rules and
// harness profiles loaded once, and check() safe to call from many threads at once. Each file's
// context (policy, task contract, harness profile) comes from the same GateContext the CLI uses, so
// kgate.check(source, path, task=...) and `kgate check --task ... path` judge alike.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "analyzers/core/status.h"
#include "analyzers/harness/harness.h"
#include "analyzers/pipeline/gate_context.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

// How one in-memory source is checked; the fields are `kgate check`'s options of the same names.
// Empty task and policy: the file kind's default policy (kernelbench for .py, repository for
// C++/CUDA). Empty config: no .kgate.yaml is read (the source may not live on disk); a reference.py
// beside an existing `path` still gives the dtype contract, as it does for the CLI.
struct CheckRequest {
  std::string source;
  std::string path = "x.py";
  std::string task;
  std::string policy;
  std::string harness;
  std::string contract;
  std::string config;
  std::string cpp_engine = "auto";
};

class Gate {
 public:
  // Loads and validates every rule and harness profile; the first problems become the error message.
  static Result<std::unique_ptr<Gate>> load(const std::filesystem::path& rules_dir);

  // Thread-safe: rules are read-only after load, and context resolution is guarded.
  Result<FileResult> check(const CheckRequest& request) const;

  const RuleSet& rules() const { return rules_; }
  const std::filesystem::path& rules_dir() const { return rules_dir_; }

 private:
  Gate(RuleSet rules, HarnessSet harnesses, std::filesystem::path rules_dir)
      : rules_(std::move(rules)), harnesses_(std::move(harnesses)), rules_dir_(std::move(rules_dir)) {}
  Result<const AnalysisContext*> context_for(const CheckRequest& request) const;

  RuleSet rules_;
  HarnessSet harnesses_;
  std::filesystem::path rules_dir_;
  mutable std::mutex mutex_;
  // One resolver per option set (task, policy, harness, contract, config, engine); the contexts they
  // hand out keep their addresses.
  using OptionKey = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string>;
  mutable std::map<OptionKey, std::unique_ptr<GateContext>> resolvers_;
};

}  // namespace kgate
