// Glob matching for rule conditions, rule ids, policy op lists and config path excludes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kgate {

// Rule-format globs: `*` any run of characters (dots included: `torch.*` matches
// `torch.nn.functional.relu`), `?` one character, `[abc]` / `[a-z]` / `[!abc]` a class.
// A malformed class (no closing `]`) matches a literal `[`.
bool glob_match(std::string_view pattern, std::string_view text);
bool glob_match_any(const std::vector<std::string>& patterns, std::string_view text);
bool has_glob_chars(std::string_view pattern);

// Path globs (config `exclude`): like glob_match, except that `*`, `?` and classes never match `/`
// and `**` matches any run including `/`. Paths use `/` separators.
bool path_glob_match(std::string_view pattern, std::string_view path);

}  // namespace kgate
