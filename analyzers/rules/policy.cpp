// Policy loading: schema validation, `extends` resolution, and the policy a task manifest names.
#include "analyzers/rules/policy.h"

#include <algorithm>
#include <regex>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "analyzers/core/glob.h"
#include "analyzers/core/json_schema.h"
#include "analyzers/tasks/task_manifest.h"
#include "analyzers/core/yaml_json.h"

namespace kgate {

namespace {

// Names become file names: keep them to the id alphabet so `--policy ../../etc/x` cannot escape.
bool valid_name(std::string_view name) {
  static const std::regex kName("^[a-z0-9]+(-[a-z0-9]+)*$");
  return std::regex_match(name.begin(), name.end(), kName);
}

std::vector<std::string> strings_of(const nlohmann::json& doc, const char* key) {
  std::vector<std::string> out;
  if (doc.contains(key))
    for (const auto& item : doc.at(key)) out.push_back(item.get<std::string>());
  return out;
}

void append(std::vector<std::string>& into, const std::vector<std::string>& more) {
  for (const auto& item : more)
    if (std::find(into.begin(), into.end(), item) == into.end()) into.push_back(item);
}

Result<Policy> load_chain(const std::filesystem::path& dir, std::string_view name, std::vector<std::string>& visiting) {
  if (!valid_name(name))
    return Error{"invalid policy name '" + std::string(name) + "' (expected lowercase letters, digits and dashes)"};
  if (std::find(visiting.begin(), visiting.end(), name) != visiting.end()) {
    std::string cycle;
    for (const auto& v : visiting) cycle += v + " -> ";
    return Error{"policy 'extends' cycle: " + cycle + std::string(name)};
  }
  const auto file = dir / (std::string(name) + ".yaml");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    std::string known;
    for (const auto& n : policy_names(dir)) known += (known.empty() ? "" : ", ") + n;
    return Error{"unknown policy '" + std::string(name) + "' (no " + file.string() +
                 "; known: " + (known.empty() ? "none" : known) + ")"};
  }
  auto document = load_yaml_as_json(file.string());
  if (!document) return Error{document.error()};
  const auto schema_file = dir / "policy.schema.json";
  if (std::filesystem::is_regular_file(schema_file, ec)) {
    auto schema = JsonSchema::load(schema_file.string());
    if (!schema) return Error{schema.error()};
    const auto violations = schema->validate(*document);
    if (!violations.empty()) {
      std::string message = file.string() + ": does not match policy.schema.json:";
      for (const auto& v : violations) message += "\n  " + v;
      return Error{message};
    }
  }
  const nlohmann::json& doc = *document;
  if (!doc.is_object() || !doc.contains("name")) return Error{file.string() + ": expected a mapping with a name"};
  if (doc.at("name").get<std::string>() != name)
    return Error{file.string() + ": name '" + doc.at("name").get<std::string>() + "' differs from the file name"};

  Policy policy;
  if (doc.contains("extends")) {
    visiting.emplace_back(name);
    auto parent = load_chain(dir, doc.at("extends").get<std::string>(), visiting);
    visiting.pop_back();
    if (!parent) return Error{file.string() + ": extends: " + parent.error()};
    policy = std::move(*parent);
  }
  policy.name = std::string(name);
  policy.description = doc.value("description", std::string());
  policy.chain.push_back(policy.name);
  append(policy.allowed_ops, strings_of(doc, "allowed_ops"));
  append(policy.forbidden_ops, strings_of(doc, "forbidden_ops"));
  append(policy.disabled_rules, strings_of(doc, "disabled_rules"));
  if (doc.contains("dtypes")) policy.dtypes = strings_of(doc, "dtypes");
  if (doc.contains("severity_overrides")) {
    for (const auto& [rule, level] : doc.at("severity_overrides").items()) {
      const auto severity = parse_severity(level.get<std::string>());
      if (!severity) return Error{file.string() + ": severity_overrides." + rule + ": expected error, warning or note"};
      // The child's entry replaces the parent's for the same key.
      auto& overrides = policy.severity_overrides;
      overrides.erase(
          std::remove_if(overrides.begin(), overrides.end(), [&](const auto& o) { return o.first == rule; }),
          overrides.end());
      overrides.emplace_back(rule, *severity);
    }
  }
  return policy;
}

}  // namespace

namespace {

// The torch function an arithmetic operator stands for: `x + y` (torch.Tensor.__add__, __radd__,
// __iadd__) is torch.add, `a @ b` (operator.matmul) is torch.matmul. A policy that allows or forbids
// the function means the operator too. Empty for anything else.
std::string operator_function(std::string_view resolved) {
  if (resolved == "operator.matmul" || resolved == "operator.imatmul") return "torch.matmul";
  constexpr std::string_view kPrefix = "torch.Tensor.__";
  if (resolved.rfind(kPrefix, 0) != 0 || resolved.size() < kPrefix.size() + 3) return {};
  std::string_view op = resolved.substr(kPrefix.size(), resolved.size() - kPrefix.size() - 2);
  if (op.size() > 1 && (op[0] == 'r' || op[0] == 'i') && op != "rshift") op.remove_prefix(1);
  static const std::pair<std::string_view, std::string_view> kFunctions[] = {{"add", "torch.add"},
                                                                             {"sub", "torch.sub"},
                                                                             {"mul", "torch.mul"},
                                                                             {"truediv", "torch.div"},
                                                                             {"floordiv", "torch.floor_divide"},
                                                                             {"mod", "torch.remainder"},
                                                                             {"pow", "torch.pow"},
                                                                             {"matmul", "torch.matmul"}};
  for (const auto& [name, function] : kFunctions)
    if (op == name) return std::string(function);
  return {};
}

}  // namespace

bool Policy::forbids(std::string_view resolved) const {
  if (glob_match_any(forbidden_ops, resolved)) return true;
  const std::string function = operator_function(resolved);
  return !function.empty() && glob_match_any(forbidden_ops, function);
}

bool Policy::allows(std::string_view resolved) const {
  if (forbids(resolved)) return false;
  if (glob_match_any(allowed_ops, resolved)) return true;
  const std::string function = operator_function(resolved);
  return !function.empty() && glob_match_any(allowed_ops, function);
}

bool Policy::disables(std::string_view rule) const { return glob_match_any(disabled_rules, rule); }

std::optional<Severity> Policy::severity_override(std::string_view rule) const {
  return most_specific_match(severity_overrides, rule);
}

Result<Policy> load_policy(const std::filesystem::path& policies_dir, std::string_view name) {
  std::vector<std::string> visiting;
  try {
    return load_chain(policies_dir, name, visiting);
  } catch (const std::exception& e) {
    // Only a schema/loader mismatch could get here; report it rather than crash.
    return Error{"policy '" + std::string(name) + "': " + e.what()};
  }
}

std::vector<std::string> policy_names(const std::filesystem::path& policies_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(policies_dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".yaml") names.push_back(it->path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string_view default_policy_name(ingest::FileKind kind) {
  return kind == ingest::FileKind::Cuda ? "repository" : "kernelbench";
}

Result<std::string> task_policy_name(const std::filesystem::path& tasks_dir, std::string_view task) {
  auto where = runtime::find_task(tasks_dir, task);
  if (!where) return Error{where.error()};
  auto loaded = runtime::load_task(*where);
  if (!loaded) return Error{loaded.error()};
  return loaded->policy.category;
}

}  // namespace kgate
