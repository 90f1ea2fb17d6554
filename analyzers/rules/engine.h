// The rule engine: evaluates every enabled rule (fact matches and registered checks) over a FactSet.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/config.h"
#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

// Which rules run and at what severity, from (lowest to highest precedence) the rule file, the
// policy (disabled_rules, severity_overrides) and the config (rules.enable/disable, severity).
// `only_rules` (fixture mode) runs exactly the listed ids, whatever policy and config say.
// The engine keeps references: rules, policy and config must outlive it.
class Engine {
 public:
  Engine(const RuleSet& rules, const Policy& policy, const Config* config = nullptr,
         std::vector<std::string> only_rules = {});

  bool enabled(const Rule& rule) const;
  // For findings the pipeline produces (input-*, suppression-*): their rule may be absent from the
  // set (a partial rules directory), in which case only the config and policy decide.
  bool enabled(std::string_view rule_id) const;
  bool only_mode() const { return !only_rules_.empty(); }
  Severity severity(const Rule& rule) const;
  Severity severity(std::string_view rule_id, Severity default_severity) const;

  std::vector<Diagnostic> run(const FactSet& facts, const std::string& path) const;

  const RuleSet& rules() const { return rules_; }
  const Policy& policy() const { return policy_; }

 private:
  const RuleSet& rules_;
  const Policy& policy_;
  const Config* config_;
  std::vector<std::string> only_rules_;
};

// Whether one condition holds for fact `index` of `kind` (exposed for tests and `kgate explain`).
bool condition_holds(const FactSet& facts, FactKind kind, size_t index, const Condition& condition);
// `{field}` placeholders replaced by the fact's fields; lists joined with ", ".
std::string render_message(std::string_view message, const FactSet& facts, FactKind kind, size_t index);

}  // namespace kgate
