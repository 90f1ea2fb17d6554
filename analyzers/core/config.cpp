// Loading, locating and dumping `.kgate.yaml`.
#include "analyzers/core/config.h"

#include <system_error>

#include <yaml-cpp/yaml.h>

#include "analyzers/core/dtype_rank.h"
#include "analyzers/core/file_text.h"
#include "analyzers/core/glob.h"
#include "analyzers/core/yaml_json.h"

namespace kgate {

namespace {

Result<std::vector<std::string>> string_list(const nlohmann::json& value, const std::string& where) {
  if (value.is_string()) return std::vector<std::string>{value.get<std::string>()};
  if (!value.is_array()) return Error{where + ": expected a list of strings"};
  std::vector<std::string> out;
  for (const auto& item : value) {
    if (!item.is_string() || item.get<std::string>().empty())
      return Error{where + ": expected a list of non-empty strings"};
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::string generic(const std::filesystem::path& path) { return path.lexically_normal().generic_string(); }

}  // namespace

bool Config::excludes(const std::filesystem::path& path) const {
  if (exclude.empty()) return false;
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(path, ec);
  const auto base = std::filesystem::absolute(directory.empty() ? std::filesystem::path(".") : directory, ec);
  std::filesystem::path relative = absolute.lexically_normal().lexically_relative(base.lexically_normal());
  // A file outside the config's tree is matched by its path as given.
  if (relative.empty() || *relative.begin() == "..") relative = path.lexically_normal();
  const std::string rel = generic(relative);
  const std::string name = relative.filename().generic_string();
  for (const auto& glob : exclude) {
    std::string pattern = glob;
    while (pattern.size() > 1 && pattern.back() == '/') pattern.pop_back();  // "build/" names a directory
    if (path_glob_match(pattern, rel) || path_glob_match(pattern, name)) return true;
    // A directory glob excludes everything below it.
    for (size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', slash + 1))
      if (path_glob_match(pattern, std::string_view(rel).substr(0, slash))) return true;
  }
  return false;
}

std::optional<Severity> Config::severity_for(std::string_view rule) const {
  return most_specific_match(severity, rule);
}

std::optional<bool> Config::enabled(std::string_view rule) const {
  if (glob_match_any(enable, rule)) return true;
  if (glob_match_any(disable, rule)) return false;
  return std::nullopt;
}

Result<Config> parse_config(std::string_view yaml_text, const std::string& source,
                            const std::filesystem::path& directory) {
  auto parsed = parse_yaml_as_json(yaml_text, source);
  if (!parsed) return Error{parsed.error()};
  const nlohmann::json& root = *parsed;
  Config config;
  config.source = source;
  config.directory = directory;
  if (root.is_null()) return config;  // an empty file is the defaults
  if (!root.is_object()) return Error{source + ": expected a mapping with keys policy, rules, severity, exclude"};

  for (const auto& [key, value] : root.items()) {
    const std::string where = source + ": " + key;
    if (key == "policy") {
      if (!value.is_string() || value.get<std::string>().empty()) return Error{where + ": expected a policy name"};
      config.policy = value.get<std::string>();
    } else if (key == "rules") {
      if (value.is_null()) continue;
      if (!value.is_object()) return Error{where + ": expected a mapping with keys enable, disable"};
      for (const auto& [list_key, list] : value.items()) {
        if (list_key != "enable" && list_key != "disable")
          return Error{where + ": unknown key '" + list_key + "' (expected enable, disable)"};
        auto ids = string_list(list, where + "." + list_key);
        if (!ids) return Error{ids.error()};
        (list_key == "enable" ? config.enable : config.disable) = std::move(*ids);
      }
    } else if (key == "severity") {
      if (value.is_null()) continue;
      if (!value.is_object()) return Error{where + ": expected a mapping of rule id to error, warning or note"};
      for (const auto& [rule, level] : value.items()) {
        const auto severity = level.is_string() ? parse_severity(level.get<std::string>()) : std::nullopt;
        if (!severity) return Error{where + "." + rule + ": expected error, warning or note, got " + level.dump()};
        config.severity.emplace_back(rule, *severity);
      }
    } else if (key == "harness") {
      if (!value.is_string() || value.get<std::string>().empty())
        return Error{where + ": expected a harness profile name"};
      config.harness = value.get<std::string>();
    } else if (key == "entry_functions") {
      if (value.is_null()) continue;
      auto names = string_list(value, where);
      if (!names) return Error{names.error()};
      config.entry_functions = std::move(*names);
    } else if (key == "contract") {
      const std::string dtype = value.is_string() ? value.get<std::string>() : std::string();
      if (!mantissa_bits(dtype)) return Error{where + ": expected a dtype contract, one of " + contract_dtype_names()};
      config.contract = dtype;
    } else if (key == "exclude") {
      if (value.is_null()) continue;
      auto globs = string_list(value, where);
      if (!globs) return Error{globs.error()};
      config.exclude = std::move(*globs);
    } else {
      return Error{source + ": unknown key '" + key +
                   "' (expected policy, harness, entry_functions, contract, rules, severity, exclude)"};
    }
  }
  return config;
}

Result<Config> load_config(const std::filesystem::path& file) {
  std::optional<std::string> text = read_file_text(file);
  if (!text) return Error{file.string() + ": cannot open or read config file"};
  std::error_code ec;
  auto directory = std::filesystem::absolute(file, ec).parent_path();
  return parse_config(*text, file.string(), directory);
}

std::optional<std::filesystem::path> find_config(const std::filesystem::path& analysed) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(analysed, ec).lexically_normal();
  if (!std::filesystem::is_directory(dir, ec)) dir = dir.parent_path();
  while (true) {
    auto candidate = dir / kConfigFileName;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

std::string dump_config(const Config& config, std::string_view effective_policy, std::string_view effective_harness) {
  YAML::Emitter out;
  if (!config.source.empty())
    out << YAML::Comment("from " + config.source);
  else
    out << YAML::Comment("built-in defaults");
  out << YAML::BeginMap;
  out << YAML::Key << "policy" << YAML::Value << std::string(effective_policy);
  out << YAML::Key << "harness" << YAML::Value << std::string(effective_harness);
  out << YAML::Key << "entry_functions" << YAML::Value << YAML::Flow << config.entry_functions;
  if (!config.contract.empty()) out << YAML::Key << "contract" << YAML::Value << config.contract;
  out << YAML::Key << "rules" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "enable" << YAML::Value << YAML::Flow << config.enable;
  out << YAML::Key << "disable" << YAML::Value << YAML::Flow << config.disable;
  out << YAML::EndMap;
  out << YAML::Key << "severity" << YAML::Value;
  if (config.severity.empty()) out << YAML::Flow;  // "{}" on the key's line, not on a line of its own
  out << YAML::BeginMap;
  for (const auto& [rule, severity] : config.severity)
    out << YAML::Key << rule << YAML::Value << std::string(to_string(severity));
  out << YAML::EndMap;
  out << YAML::Key << "exclude" << YAML::Value << YAML::Flow << config.exclude;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace kgate
