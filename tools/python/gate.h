// Gate: the static gate held in memory for in-process callers (the Python module): the rules loaded
// once, policies loaded on first use, and check() safe to call from many threads at once.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "analyzers/core/status.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

// How one in-memory source is checked. Empty task and policy: the file kind's default policy
// (kernelbench for .py, repository for C++/CUDA), as `kgate check` without --task/--policy.
struct CheckRequest {
  std::string source;
  std::string path = "x.py";
  std::string task;
  std::string policy;
  std::string cpp_engine = "auto";
};

class Gate {
 public:
  // Loads and validates every rule; the first problems become the error message.
  static Result<std::unique_ptr<Gate>> load(const std::filesystem::path& rules_dir);

  // Thread-safe: rules are read-only after load, and the policy cache is guarded.
  Result<FileResult> check(const CheckRequest& request) const;

  const RuleSet& rules() const { return rules_; }
  const std::filesystem::path& rules_dir() const { return rules_dir_; }

 private:
  Gate(RuleSet rules, std::filesystem::path rules_dir) : rules_(std::move(rules)), rules_dir_(std::move(rules_dir)) {}
  Result<const Policy*> policy_for(const CheckRequest& request) const;

  RuleSet rules_;
  std::filesystem::path rules_dir_;
  mutable std::mutex mutex_;
  // Node-based maps: pointers handed out stay valid while other entries are added.
  mutable std::map<std::string, Policy> policies_;
  mutable std::map<std::string, std::string> task_policies_;
};

}  // namespace kgate
