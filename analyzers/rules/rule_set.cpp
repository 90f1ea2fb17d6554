// Rule loading and validation: schema first (shape), then the fact model and the check registry (meaning).
#include "analyzers/rules/rule_set.h"

#include <optional>
#include <thread>

#include <algorithm>
#include <system_error>

#include "analyzers/core/file_text.h"
#include "analyzers/core/yaml_json.h"
#include "analyzers/rules/rule_cache.h"
#include "analyzers/rules/checks.h"

namespace kgate {

namespace {

std::vector<std::string> strings_of(const nlohmann::json& value) {
  std::vector<std::string> out;
  if (value.is_string())
    out.push_back(value.get<std::string>());
  else if (value.is_array())
    for (const auto& item : value) out.push_back(item.get<std::string>());
  return out;
}

// The schema allows exactly one of above, below, at_least, at_most, with a number.
Threshold threshold_of(const nlohmann::json& object) {
  Threshold threshold;
  for (const auto& [op, bound] : object.items()) {
    if (op == "below")
      threshold.op = Threshold::Op::Below;
    else if (op == "at_least")
      threshold.op = Threshold::Op::AtLeast;
    else if (op == "at_most")
      threshold.op = Threshold::Op::AtMost;
    else
      threshold.op = Threshold::Op::Above;
    threshold.value = bound.get<double>();
  }
  return threshold;
}

ConditionMap conditions_of(const nlohmann::json& object) {
  ConditionMap map;
  for (const auto& [field, value] : object.items()) {
    Condition condition{field, false};
    if (value.is_boolean())
      condition.expected = value.get<bool>();
    else if (value.is_number_integer())
      condition.expected = value.get<int64_t>();
    else if (value.is_object())
      condition.expected = threshold_of(value);
    else
      condition.expected = strings_of(value);
    condition.compile();
    map.push_back(std::move(condition));
  }
  return map;
}

// Meaning checks that a schema cannot express; each problem is one sentence naming the rule part.
std::vector<std::string> semantic_problems(const Rule& rule) {
  std::vector<std::string> problems;
  if (rule.is_check()) {
    if (!find_check(rule.check)) {
      std::string names;
      for (const auto& entry : check_registry()) names += (names.empty() ? "" : ", ") + std::string(entry.name);
      problems.push_back("check: '" + rule.check +
                         "' is not in the check registry (analyzers/rules/checks.cpp: " + names + ")");
    }
    return problems;
  }
  bool any_call = false;
  for (size_t a = 0; a < rule.match.size(); ++a) {
    const FactMatch& alternative = rule.match[a];
    any_call = any_call || alternative.fact == FactKind::Call;
    const auto& fields = field_names(alternative.fact);
    const std::string kind(to_string(alternative.fact));
    const std::string at = rule.match.size() == 1 ? "match" : "match[" + std::to_string(a) + "]";
    auto known = [&](const std::string& field) {
      return std::find(fields.begin(), fields.end(), field) != fields.end();
    };
    auto list = [&] {
      std::string joined;
      for (const auto& f : fields) joined += (joined.empty() ? "" : ", ") + f;
      return joined;
    };
    auto check_map = [&](const ConditionMap& map, const std::string& where) {
      for (const auto& condition : map)
        if (!known(condition.field))
          problems.push_back(where + ": '" + condition.field + "' is not a field of " + kind +
                             " facts (fields: " + list() + ")");
    };
    check_map(alternative.where, at + ".where");
    for (size_t i = 0; i < alternative.unless.size(); ++i)
      check_map(alternative.unless[i], at + ".unless[" + std::to_string(i) + "]");
    // Each alternative renders its own message, or the rule's: either must name only its fields.
    for (const auto& name : message_placeholders(alternative.message.empty() ? rule.message : alternative.message))
      if (!known(name))
        problems.push_back("message: {" + name + "} is not a field of " + kind + " facts, which " + at +
                           " matches (fields: " + list() + ")");
  }
  if (rule.policy_filter && !any_call)
    problems.push_back("policy_filter: applies to call facts only, and this rule matches no call facts");
  return problems;
}

FactMatch fact_match_of(const nlohmann::json& match) {
  FactMatch fact_match;
  fact_match.fact = parse_fact_kind(match.at("fact").get<std::string>()).value_or(FactKind::Call);
  if (match.contains("where")) fact_match.where = conditions_of(match.at("where"));
  if (match.contains("unless"))
    for (const auto& map : match.at("unless")) fact_match.unless.push_back(conditions_of(map));
  fact_match.message = match.value("message", std::string());
  if (match.contains("severity")) fact_match.severity = parse_severity(match.at("severity").get<std::string>());
  return fact_match;
}

}  // namespace

bool Threshold::holds(double actual) const {
  switch (op) {
    case Op::Above:
      return actual > value;
    case Op::Below:
      return actual < value;
    case Op::AtLeast:
      return actual >= value;
    case Op::AtMost:
      return actual <= value;
  }
  return false;
}

std::vector<std::string> message_placeholders(std::string_view message) {
  std::vector<std::string> names;
  for (size_t open = message.find('{'); open != std::string_view::npos; open = message.find('{', open + 1)) {
    const size_t close = message.find('}', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view name = message.substr(open + 1, close - open - 1);
    const bool identifier =
        !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string_view::npos;
    if (identifier) names.emplace_back(name);
  }
  return names;
}

bool RuleSet::add(Rule rule) {
  auto at = std::lower_bound(rules_.begin(), rules_.end(), rule.id,
                             [](const Rule& r, const std::string& id) { return r.id < id; });
  if (at != rules_.end() && at->id == rule.id) return false;
  rules_.insert(at, std::move(rule));
  return true;
}

const Rule* RuleSet::find(std::string_view id) const {
  auto at = std::lower_bound(rules_.begin(), rules_.end(), id,
                             [](const Rule& r, std::string_view key) { return r.id < key; });
  return at != rules_.end() && at->id == id ? &*at : nullptr;
}

namespace {
Result<Rule> rule_from_valid_json(const nlohmann::json& doc, const std::string& source);
}  // namespace

Result<Rule> parse_rule(std::string_view yaml_text, const std::string& source, const JsonSchema& schema) {
  auto document = parse_yaml_as_json(yaml_text, source);
  if (!document) return Error{document.error()};
  return rule_from_json(*document, source, schema);
}

Result<Rule> rule_from_json(const nlohmann::json& doc, const std::string& source, const JsonSchema& schema) {
  const auto violations = schema.validate(doc);
  if (!violations.empty()) {
    std::string message = source + ": does not match rules/schema.json:";
    for (const auto& v : violations) message += "\n  " + v;
    return Error{message};
  }
  return rule_from_valid_json(doc, source);
}

namespace {

Result<Rule> rule_from_valid_json(const nlohmann::json& doc, const std::string& source) {
  // The schema guarantees every access below has the right type.
  Rule rule;
  rule.file = source;
  rule.id = doc.at("id").get<std::string>();
  rule.severity = parse_severity(doc.at("severity").get<std::string>()).value_or(Severity::Error);
  rule.languages = strings_of(doc.value("languages", nlohmann::json::array()));
  rule.techniques = strings_of(doc.at("techniques"));
  rule.summary = doc.at("summary").get<std::string>();
  rule.message = doc.at("message").get<std::string>();
  rule.rationale = doc.at("rationale").get<std::string>();
  rule.policy_filter = doc.value("policy_filter", false);
  rule.group = doc.value("group", std::string());
  rule.priority = static_cast<int>(doc.value("priority", int64_t{0}));
  rule.fixture = doc.value("fixture", std::string());
  if (doc.contains("check")) {
    rule.check = doc.at("check").get<std::string>();
  } else if (doc.at("match").is_array()) {
    for (const auto& alternative : doc.at("match")) rule.match.push_back(fact_match_of(alternative));
  } else {
    rule.match.push_back(fact_match_of(doc.at("match")));
  }
  const auto problems = semantic_problems(rule);
  if (!problems.empty()) {
    std::string message = source + ": rule '" + rule.id + "':";
    for (const auto& p : problems) message += "\n  " + p;
    return Error{message};
  }
  return rule;
}

// Adds parsed rules in file order, checking each id against its file stem and for duplicates.
void add_rules(RuleLoad& load, const std::vector<std::filesystem::path>& files,
               std::vector<std::optional<Result<Rule>>>& parsed) {
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& file = files[i];
    const std::string name = file.string();
    auto& rule = *parsed[i];
    if (!rule) {
      load.problems.push_back({name, rule.error()});
      continue;
    }
    if (rule->id != file.stem().string()) {
      load.problems.push_back({name, name + ": id '" + rule->id + "' differs from the file name (expected " +
                                         file.stem().string() + ".yaml)"});
      continue;
    }
    const Rule* existing = load.rules.find(rule->id);
    if (existing) {
      load.problems.push_back({name, name + ": duplicate rule id '" + rule->id + "' (also in " + existing->file + ")"});
      continue;
    }
    load.rules.add(std::move(*rule));
  }
}

}  // namespace

RuleLoad load_rules(const std::filesystem::path& rules_dir, const std::filesystem::path& cache_dir) {
  RuleLoad load;
  std::error_code ec;
  if (!std::filesystem::is_directory(rules_dir, ec)) {
    load.problems.push_back({rules_dir.string(), "rules directory not found"});
    return load;
  }
  const auto schema_path = (rules_dir / "schema.json").string();
  const std::optional<std::string> schema_text = read_file_text(schema_path);
  if (!schema_text) {
    load.problems.push_back({schema_path, schema_path + ": cannot open schema"});
    return load;
  }

  std::vector<std::filesystem::path> files;
  // Policies and harness profiles are data of other kinds, with schemas of their own.
  const auto policies = (rules_dir / "policies").lexically_normal();
  const auto harnesses = (rules_dir / "harnesses").lexically_normal();
  for (auto it = std::filesystem::recursive_directory_iterator(rules_dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() &&
        (it->path().lexically_normal() == policies || it->path().lexically_normal() == harnesses)) {
      it.disable_recursion_pending();
      continue;
    }
    const auto ext = it->path().extension();
    if (it->is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(it->path());
  }
  if (ec) load.problems.push_back({rules_dir.string(), "cannot list rules: " + ec.message()});
  std::sort(files.begin(), files.end());

  // Every file is read once; the texts are the cache key and the parser's input.
  RuleCacheKey key;
  key.schema_text = *schema_text;
  std::vector<char> readable(files.size(), 0);
  for (size_t i = 0; i < files.size(); ++i) {
    std::optional<std::string> text = read_file_text(files[i]);
    readable[i] = text.has_value();
    key.files.emplace_back(files[i].string(), text ? std::move(*text) : std::string());
  }
  const bool cacheable = !cache_dir.empty() && load.problems.empty() &&
                         std::all_of(readable.begin(), readable.end(), [](char r) { return r != 0; });

  std::vector<std::optional<Result<Rule>>> parsed(files.size());
  if (cacheable) {
    if (auto documents = load_rule_cache(cache_dir, rules_dir, key)) {
      // The same bytes validated before: only the meaning checks run again (they are cheap).
      bool ok = true;
      try {
        for (size_t i = 0; i < files.size(); ++i) {
          parsed[i].emplace(rule_from_valid_json((*documents)[i], files[i].string()));
          ok = ok && parsed[i]->has_value();
        }
      } catch (const std::exception&) {
        ok = false;
      }
      if (ok) {
        add_rules(load, files, parsed);
        if (load.problems.empty()) return load;
        load = RuleLoad{};  // an entry that does not reproduce a clean load is ignored
      }
      std::fill(parsed.begin(), parsed.end(), std::nullopt);
    }
  }

  const nlohmann::json schema_document = nlohmann::json::parse(*schema_text, nullptr, /*allow_exceptions=*/false);
  if (schema_document.is_discarded()) {
    load.problems.push_back({schema_path, schema_path + ": schema is not valid JSON"});
    return load;
  }
  auto schema = JsonSchema::from_json(schema_document, schema_path);
  if (!schema) {
    load.problems.push_back({schema_path, schema.error()});
    return load;
  }

  // Parsing and schema validation dominate a cold start; files are independent, so they are parsed on
  // a few threads and merged in sorted order below (the result does not depend on the thread count).
  std::vector<nlohmann::json> documents(files.size());
  const size_t threads = std::max<size_t>(1, std::min<size_t>(4, std::thread::hardware_concurrency()));
  {
    std::vector<std::jthread> workers;
    for (size_t t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        for (size_t i = t; i < files.size(); i += threads) {
          const std::string& name = key.files[i].first;
          if (!readable[i]) {
            parsed[i].emplace(Error{name + ": cannot open file"});
            continue;
          }
          auto document = parse_yaml_as_json(key.files[i].second, name);  // YAML errors come back with line:col
          if (!document) {
            parsed[i].emplace(Error{document.error()});
            continue;
          }
          parsed[i].emplace(rule_from_json(*document, name, *schema));
          documents[i] = std::move(*document);
        }
      });
  }

  add_rules(load, files, parsed);
  if (cacheable && load.problems.empty()) store_rule_cache(cache_dir, rules_dir, key, documents);
  return load;
}

}  // namespace kgate
