// Glob matching for rule conditions, rule ids, policy op lists and config path excludes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace kgate {

// Rule-format globs: `*` any run of characters (dots included: `torch.*` matches
// `torch.nn.functional.relu`), `?` one character, `[abc]` / `[a-z]` / `[!abc]` a class.
// A malformed class (no closing `]`) matches a literal `[`.
bool glob_match(std::string_view pattern, std::string_view text);
bool glob_match_any(const std::vector<std::string>& patterns, std::string_view text);
bool has_glob_chars(std::string_view pattern);

// A list of globs compiled once: patterns without metacharacters go in a hash set (most of a rule's
// name lists are exact names), the rest are tried in order, each only when the text starts with the
// pattern's literal prefix (`torch.*` is tried only on names starting "torch."; a pattern that is a
// prefix and stars, most of the rules' globs, is decided by that prefix alone). Same answer as
// glob_match_any.
class GlobSet {
 public:
  GlobSet() = default;
  explicit GlobSet(const std::vector<std::string>& patterns);
  bool match(std::string_view text) const;

 private:
  std::unordered_set<std::string_view> exact_;
  std::vector<std::string> owned_;  // storage for exact_'s views
  struct Wild {
    std::string pattern;
    size_t prefix;     // length of the literal prefix (up to the first metacharacter)
    bool prefix_only;  // the rest is only `*` (`torch.Tensor.*`): the prefix decides alone
  };
  std::vector<Wild> wild_;
};

// Among (glob, value) entries, the value of the most specific match for `name`: an exact entry wins,
// else the longest matching glob (YAML mappings have no order that survives parsing, so "last wins"
// would not be well defined). Used by config and policy severity overrides.
template <typename Value>
std::optional<Value> most_specific_match(const std::vector<std::pair<std::string, Value>>& entries,
                                         std::string_view name) {
  std::optional<Value> result;
  size_t best = 0;
  for (const auto& [glob, value] : entries) {
    if (glob == name) return value;
    if (glob_match(glob, name) && glob.size() >= best) result = value, best = glob.size();
  }
  return result;
}

// Path globs (config `exclude`): like glob_match, except that `*`, `?` and classes never match `/`
// and `**` matches any run including `/`. Paths use `/` separators.
bool path_glob_match(std::string_view pattern, std::string_view path);

}  // namespace kgate
