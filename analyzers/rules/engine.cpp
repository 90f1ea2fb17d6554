// Rule evaluation: conditions, policy filter, languages, exclusive groups, messages, checks.
#include "analyzers/rules/engine.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "analyzers/core/glob.h"
#include "analyzers/rules/checks.h"

namespace kgate {

namespace {

std::string field_text(const FieldValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return *s;
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", *d);
    return buffer;
  }
  if (const auto* list = std::get_if<std::vector<std::string>>(&value)) {
    std::string joined;
    for (const auto& item : *list) joined += (joined.empty() ? "" : ", ") + item;
    return joined;
  }
  return {};
}

bool map_holds(const FactSet& facts, FactKind kind, size_t index, const ConditionMap& map) {
  // Flags first (`reachable: true` rules out most facts), glob lists after: same answer, less matching.
  auto is_glob = [](const Condition& c) { return std::holds_alternative<std::vector<std::string>>(c.expected); };
  for (const Condition& c : map)
    if (!is_glob(c) && !condition_holds(facts, kind, index, c)) return false;
  for (const Condition& c : map)
    if (is_glob(c) && !condition_holds(facts, kind, index, c)) return false;
  return true;
}

bool language_allowed(const Rule& rule, const FactSet& facts, FactKind kind, size_t index) {
  if (rule.languages.empty()) return true;
  const auto language = fact_language(facts, kind, index);
  if (!language) return true;  // facts without a language (imports, writes) are not filtered
  const std::string_view name = to_string(*language);
  return std::find(rule.languages.begin(), rule.languages.end(), name) != rule.languages.end();
}

bool matches(const Rule& rule, const FactMatch& match, const Policy& policy, const FactSet& facts, size_t index) {
  if (!language_allowed(rule, facts, match.fact, index)) return false;
  if (!map_holds(facts, match.fact, index, match.where)) return false;
  for (const auto& unless : match.unless)
    if (map_holds(facts, match.fact, index, unless)) return false;
  if (rule.policy_filter && match.fact == FactKind::Call && policy.allows(facts.calls[index].resolved)) return false;
  return true;
}

}  // namespace

bool condition_holds(const FactSet& facts, FactKind kind, size_t index, const Condition& condition) {
  const FieldValue value = fact_field(facts, kind, index, condition.field);
  if (const auto* expected = std::get_if<bool>(&condition.expected)) {
    const auto* actual = std::get_if<bool>(&value);
    return actual && *actual == *expected;
  }
  if (const auto* expected = std::get_if<int64_t>(&condition.expected)) {
    const auto* actual = std::get_if<int64_t>(&value);
    return actual && *actual == *expected;
  }
  if (const auto* threshold = std::get_if<Threshold>(&condition.expected)) {
    if (const auto* i = std::get_if<int64_t>(&value)) return threshold->holds(static_cast<double>(*i));
    if (const auto* d = std::get_if<double>(&value)) return threshold->holds(*d);
    return false;
  }
  const auto& globs = std::get<std::vector<std::string>>(condition.expected);
  auto matches = [&](const std::string& item) {
    return condition.globs ? condition.globs->match(item) : glob_match_any(globs, item);
  };
  if (const auto* text = std::get_if<std::string>(&value)) return matches(*text);
  if (const auto* list = std::get_if<std::vector<std::string>>(&value))
    return std::any_of(list->begin(), list->end(), matches);
  return false;
}

std::string render_message(std::string_view message, const FactSet& facts, FactKind kind, size_t index) {
  std::string out;
  out.reserve(message.size());
  size_t at = 0;
  while (at < message.size()) {
    const size_t open = message.find('{', at);
    const size_t close = open == std::string_view::npos ? open : message.find('}', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view name = message.substr(open + 1, close - open - 1);
    const FieldValue value = fact_field(facts, kind, index, name);
    out.append(message.substr(at, open - at));
    // Unknown names stay as written: rule validation reports them, and a message is never lost.
    if (std::holds_alternative<std::monostate>(value))
      out.append(message.substr(open, close - open + 1));
    else
      out += field_text(value);
    at = close + 1;
  }
  out.append(message.substr(std::min(at, message.size())));
  return out;
}

Engine::Engine(const RuleSet& rules, const Policy& policy, const Config* config, std::vector<std::string> only_rules)
    : rules_(rules), policy_(policy), config_(config), only_rules_(std::move(only_rules)) {}

bool Engine::enabled(std::string_view rule_id) const {
  if (!only_rules_.empty()) return std::find(only_rules_.begin(), only_rules_.end(), rule_id) != only_rules_.end();
  if (config_)
    if (auto decided = config_->enabled(rule_id)) return *decided;
  return !policy_.disables(rule_id);
}

bool Engine::enabled(const Rule& rule) const { return enabled(std::string_view(rule.id)); }

Severity Engine::severity(std::string_view rule_id, Severity default_severity) const {
  if (config_)
    if (auto level = config_->severity_for(rule_id)) return *level;
  if (auto level = policy_.severity_override(rule_id)) return *level;
  return default_severity;
}

Severity Engine::severity(const Rule& rule) const { return severity(rule.id, rule.severity); }

std::vector<Diagnostic> Engine::run(const FactSet& facts, const std::string& path) const {
  struct Hit {
    const Rule* rule;
    const FactMatch* alternative;
    size_t index;
  };
  std::vector<Hit> hits;
  // Per (group, fact kind, fact index), the winning rule so far: highest priority, then smallest id.
  std::map<std::tuple<std::string, FactKind, size_t>, size_t> group_winner;
  std::vector<Diagnostic> out;

  for (const Rule& rule : rules_.rules()) {
    if (!enabled(rule)) continue;
    if (rule.is_check()) {
      const CheckEntry* check = find_check(rule.check);
      if (!check || !check->run) continue;
      for (Diagnostic& d : check->run(facts, rule, policy_)) {
        d.rule = rule.id;
        d.severity = severity(rule);
        d.path = path;
        if (d.engine.empty()) d.engine = facts.engine;
        out.push_back(std::move(d));
      }
      continue;
    }
    // A fact that several alternatives match is reported once for this rule (only rules with several
    // alternatives need to remember which).
    std::set<std::pair<FactKind, size_t>> reported;
    const bool several = rule.match.size() > 1;
    for (const FactMatch& alternative : rule.match) {
      const FactKind kind = alternative.fact;
      const size_t count = fact_count(facts, kind);
      for (size_t i = 0; i < count; ++i) {
        if ((several && reported.count({kind, i})) || !matches(rule, alternative, policy_, facts, i)) continue;
        if (several) reported.insert({kind, i});
        if (rule.group.empty()) {
          hits.push_back({&rule, &alternative, i});
          continue;
        }
        auto [at, inserted] = group_winner.try_emplace(std::make_tuple(rule.group, kind, i), hits.size());
        if (inserted) {
          hits.push_back({&rule, &alternative, i});
          continue;
        }
        // rules_ iterates in id order, so on a tie the earlier (smaller) id already holds the slot.
        if (rule.priority > hits[at->second].rule->priority) hits[at->second] = {&rule, &alternative, i};
      }
    }
  }

  for (const Hit& hit : hits) {
    Diagnostic d;
    d.rule = hit.rule->id;
    d.severity = severity(hit.rule->id, hit.alternative->severity.value_or(hit.rule->severity));
    const FactKind kind = hit.alternative->fact;
    const std::string& message = hit.alternative->message.empty() ? hit.rule->message : hit.alternative->message;
    d.message = render_message(message, facts, kind, hit.index);
    d.path = path;
    d.span = fact_span(facts, kind, hit.index);
    d.engine = facts.engine;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace kgate
