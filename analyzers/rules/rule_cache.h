// The rule cache: the rule documents of a rules directory, already converted from YAML and checked
// against the schema, kept between runs so that `kgate check` starts without yaml-cpp and valijson
// (together most of its start-up). An entry is used only when its key matches what the run read:
// every rule file's path and text, the schema's text, and the kgate binary (path, size, modification
// time), so an edit to any of them, or a rebuild, misses and reloads. The entry stores the SHA-256 of
// that key, not the key itself: reading ~100 kB of rule text back from the entry and comparing it
// cost more than the documents did.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/cache_dir.h"  // default_cache_dir, for callers of the cache

namespace kgate {

struct RuleCacheKey {
  std::string schema_text;
  std::vector<std::pair<std::string, std::string>> files;  // (path, text), sorted by path
  // SHA-256 (hex) of the cache format, the binary's identity, the schema and every (path, text), each
  // part prefixed by its length so that no two different keys give the same bytes.
  std::string digest() const;
};

// The validated documents stored for this key (one per file, in the key's order), or nullopt when
// there is no entry, it is unreadable, or its key differs.
std::optional<std::vector<nlohmann::json>> load_rule_cache(const std::filesystem::path& cache_dir,
                                                           const std::filesystem::path& rules_dir,
                                                           const RuleCacheKey& key);

// Stores documents that passed validation (best effort: an unwritable cache is not an error).
void store_rule_cache(const std::filesystem::path& cache_dir, const std::filesystem::path& rules_dir,
                      const RuleCacheKey& key, const std::vector<nlohmann::json>& documents);

}  // namespace kgate
