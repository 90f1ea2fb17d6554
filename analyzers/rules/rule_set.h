// Rules as data: loading rules/**/*.yaml, validating them (schema, fact fields, checks), and lookup.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/core/glob.h"
#include "analyzers/core/json_schema.h"
#include "analyzers/core/status.h"

namespace kgate {

// A numeric bound (`cyclomatic: {above: 15}`): holds when the field's number lies beyond it.
struct Threshold {
  enum class Op { Above, Below, AtLeast, AtMost };
  Op op = Op::Above;
  double value = 0;
  bool holds(double actual) const;
};

// One `field: value` of a where/unless map. Globs hold when any glob matches the field (any element
// of a list field); bools and integers compare for equality; thresholds compare numbers; a missing
// field never matches.
struct Condition {
  std::string field;
  std::variant<bool, int64_t, std::vector<std::string>, Threshold> expected;
  std::shared_ptr<const GlobSet> globs;  // compiled from `expected` when it is a list (see compile())
  // Builds `globs`; the loader calls it, and so must anyone who builds a Condition by hand.
  void compile() {
    if (const auto* list = std::get_if<std::vector<std::string>>(&expected)) globs = std::make_shared<GlobSet>(*list);
  }
};
using ConditionMap = std::vector<Condition>;

// One alternative of a rule's `match`: a fact kind and its conditions.
struct FactMatch {
  FactKind fact = FactKind::Call;
  ConditionMap where;                // every condition must hold
  std::vector<ConditionMap> unless;  // the fact is dropped if any map holds
  std::string message;               // replaces the rule's message for this alternative; empty: the rule's
  // The alternative's own severity (a precision finding under an unknown contract is a warning);
  // unset: the rule's. A config or policy override still wins.
  std::optional<Severity> severity;
};

struct Rule {
  std::string id;
  Severity severity = Severity::Error;
  std::vector<std::string> languages;   // empty: every language
  std::vector<std::string> techniques;  // technique ids (docs/threats.md)
  std::string summary;
  std::string message;  // may name fact fields as {field}
  std::string rationale;
  // `match:` is one map or a list of alternatives (a fact matching several reports once);
  // empty for check rules. Exactly one of match and check is set.
  std::vector<FactMatch> match;
  std::string check;
  std::string fixture;  // "generated": the fixture is made by tests, not kept beside the rule
  bool policy_filter = false;
  std::string group;
  int priority = 0;
  std::string file;  // where it was loaded from
  bool is_check() const { return match.empty(); }
};

// A problem with one rule file, reported by `kgate rules --validate` and as a config error by check.
struct RuleProblem {
  std::string file;
  std::string message;
};

class RuleSet {
 public:
  RuleSet() = default;
  // Adds a rule already validated (tests build sets this way). Returns false on a duplicate id.
  bool add(Rule rule);
  const std::vector<Rule>& rules() const { return rules_; }  // sorted by id
  const Rule* find(std::string_view id) const;
  bool contains(std::string_view id) const { return find(id) != nullptr; }
  size_t size() const { return rules_.size(); }

 private:
  std::vector<Rule> rules_;
};

struct RuleLoad {
  RuleSet rules;                      // every rule that loaded cleanly
  std::vector<RuleProblem> problems;  // empty when the whole directory is valid
};

// Loads every *.yaml under `rules_dir` (sorted, recursive), skipping `policies/`. Each file is
// validated against `rules_dir/schema.json`, its id against its file stem, its fields against
// kgate::field_names, its `{field}` placeholders likewise, and its check against the registry.
// With a cache_dir (`kgate check`), the validated documents are kept there between runs and reused
// while every rule file, the schema and the binary are unchanged (analyzers/rules/rule_cache.h);
// `kgate rules --validate` and the tests load without one, so they always parse and validate.
RuleLoad load_rules(const std::filesystem::path& rules_dir, const std::filesystem::path& cache_dir = {});

// One rule document (already read); `source` names it in messages. Used by load_rules and tests.
Result<Rule> parse_rule(std::string_view yaml_text, const std::string& source, const JsonSchema& schema);
Result<Rule> rule_from_json(const nlohmann::json& document, const std::string& source, const JsonSchema& schema);

// The `{name}` placeholders of a message template, in order.
std::vector<std::string> message_placeholders(std::string_view message);

}  // namespace kgate
