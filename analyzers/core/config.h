// `.kgate.yaml`: per-tree settings (policy, rule enable/disable, severity overrides, excluded paths).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/status.h"

namespace kgate {

inline constexpr std::string_view kConfigFileName = ".kgate.yaml";

// Everything is optional; an empty Config is the built-in default (every rule on, the policy chosen
// by file kind). Rule lists hold ids or globs. Excludes are path globs relative to `directory`.
struct Config {
  std::string source;                        // the file it was read from; empty for the defaults
  std::filesystem::path directory;           // excludes are relative to this
  std::string policy;                        // kernelbench | repository | a category; empty: by file kind
  std::string harness;                       // a harness profile (rules/harnesses); empty: detected per file
  std::vector<std::string> entry_functions;  // extra entry functions (roots of reachability)
  std::string contract;                      // the tasks' dtype contract ("bf16"), when no task or reference gives one
  std::vector<std::string> enable;
  std::vector<std::string> disable;
  std::vector<std::pair<std::string, Severity>> severity;  // id or glob; the most specific match wins
  std::vector<std::string> exclude;

  // Whether `path` (absolute, or relative to the working directory) falls under an exclude glob. A
  // glob matches the path relative to `directory`, any of its parent directories, or its file name.
  bool excludes(const std::filesystem::path& path) const;
  std::optional<Severity> severity_for(std::string_view rule) const;
  // Enable wins over disable, so `disable: ["*"]` with `enable: [one-rule]` runs one rule.
  // nullopt: the config says nothing about the rule.
  std::optional<bool> enabled(std::string_view rule) const;
};

Result<Config> parse_config(std::string_view yaml_text, const std::string& source,
                            const std::filesystem::path& directory);
Result<Config> load_config(const std::filesystem::path& file);
// The nearest `.kgate.yaml` in the directory of `analysed` (or `analysed` itself if it is a
// directory) and its parents, the way clang-tidy finds `.clang-tidy`.
std::optional<std::filesystem::path> find_config(const std::filesystem::path& analysed);
// The effective configuration as YAML that parse_config reads back (`kgate check --dump-config`).
// `effective_harness` is the forced profile, or "auto" when each file's is detected.
std::string dump_config(const Config& config, std::string_view effective_policy,
                        std::string_view effective_harness = "auto");

}  // namespace kgate
