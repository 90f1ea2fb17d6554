// Gate: rules and harness profiles loaded once, one GateContext per option set (see gate.h).
#include "tools/python/gate.h"

#include <utility>

namespace kgate {

Result<std::unique_ptr<Gate>> Gate::load(const std::filesystem::path& rules_dir) {
  RuleLoad load = load_rules(rules_dir);
  if (!load.problems.empty()) {
    std::string message = std::to_string(load.problems.size()) + " problem(s) in rules directory " + rules_dir.string();
    for (size_t i = 0; i < load.problems.size() && i < 5; ++i) message += "\n  " + load.problems[i].message;
    return Error{message};
  }
  auto harnesses = load_harness_profiles(rules_dir);
  if (!harnesses) return Error{harnesses.error()};
  return std::unique_ptr<Gate>(new Gate(std::move(load.rules), std::move(*harnesses), rules_dir));
}

Result<const AnalysisContext*> Gate::context_for(const CheckRequest& request) const {
  if (!request.task.empty() && !request.policy.empty()) return Error{"give task or policy, not both"};
  if (request.cpp_engine != "auto" && request.cpp_engine != "tree-sitter" && request.cpp_engine != "none")
    return Error{"cpp_engine must be auto, tree-sitter or none, not '" + request.cpp_engine + "'"};
  std::lock_guard<std::mutex> lock(mutex_);
  const OptionKey key{request.task,     request.policy, request.harness,
                      request.contract, request.config, request.cpp_engine};
  auto at = resolvers_.find(key);
  if (at == resolvers_.end()) {
    GateOptions options;
    options.task = request.task;
    options.policy = request.policy;
    options.harness = request.harness;
    options.contract = request.contract;
    options.config_file = request.config;
    options.find_configs = false;
    options.cpp_engine = request.cpp_engine;
    auto made = GateContext::make(options, rules_, harnesses_, rules_dir_);
    if (!made) return Error{made.error()};
    at = resolvers_.emplace(key, std::make_unique<GateContext>(std::move(*made))).first;
  }
  return at->second->context_for(request.path);
}

Result<FileResult> Gate::check(const CheckRequest& request) const {
  auto context = context_for(request);
  if (!context) return Error{context.error()};
  return analyze_source(request.path, request.source, **context);
}

}  // namespace kgate
