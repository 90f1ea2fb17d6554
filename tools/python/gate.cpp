// Gate: rules loaded once, policies cached, one in-memory source checked per call (see gate.h).
#include "tools/python/gate.h"

#include <cstdlib>
#include <utility>

#include "analyzers/ingest/ingest.h"

namespace kgate {

Result<std::unique_ptr<Gate>> Gate::load(const std::filesystem::path& rules_dir) {
  RuleLoad load = load_rules(rules_dir);
  if (!load.problems.empty()) {
    std::string message = std::to_string(load.problems.size()) + " problem(s) in rules directory " + rules_dir.string();
    for (size_t i = 0; i < load.problems.size() && i < 5; ++i) message += "\n  " + load.problems[i].message;
    return Error{message};
  }
  return std::unique_ptr<Gate>(new Gate(std::move(load.rules), rules_dir));
}

Result<const Policy*> Gate::policy_for(const CheckRequest& request) const {
  if (!request.task.empty() && !request.policy.empty()) return Error{"give task or policy, not both"};
  std::lock_guard<std::mutex> lock(mutex_);
  std::string name = request.policy;
  if (!request.task.empty()) {
    auto known = task_policies_.find(request.task);
    if (known == task_policies_.end()) {
      auto resolved = task_policy_name(rules_dir_.parent_path() / "tasks", request.task);
      if (!resolved) return Error{"task '" + request.task + "': " + resolved.error()};
      known = task_policies_.emplace(request.task, std::move(*resolved)).first;
    }
    name = known->second;
  }
  if (name.empty()) name = std::string(default_policy_name(ingest::kind_from_path(request.path)));
  auto at = policies_.find(name);
  if (at == policies_.end()) {
    auto loaded = load_policy(rules_dir_ / "policies", name);
    if (!loaded) return Error{loaded.error()};
    at = policies_.emplace(name, std::move(*loaded)).first;
  }
  return &at->second;
}

Result<FileResult> Gate::check(const CheckRequest& request) const {
  if (request.cpp_engine != "auto" && request.cpp_engine != "tree-sitter" && request.cpp_engine != "none")
    return Error{"cpp_engine must be auto, tree-sitter or none, not '" + request.cpp_engine + "'"};
  auto policy = policy_for(request);
  if (!policy) return Error{policy.error()};
  AnalysisContext context;
  context.rules = &rules_;
  context.policy = *policy;
  context.cpp_engine = request.cpp_engine;
  return analyze_source(request.path, request.source, context);
}

}  // namespace kgate
