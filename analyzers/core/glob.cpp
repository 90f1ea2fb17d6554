// A small glob matcher: the rule format's `*`, `?` and `[...]`, plus `**` for paths.
#include "analyzers/core/glob.h"

#include <algorithm>
#include <cstdint>

namespace kgate {

namespace {

constexpr std::string_view kMetaCharacters = "*?[";

// Matches a class starting at pattern[p] == '['. Returns the index just past `]` and whether `c`
// is in the class; returns p + 1 with matched == (c == '[') when the class is not closed.
size_t match_class(std::string_view pattern, size_t p, char c, bool& matched) {
  size_t i = p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) negate = true, ++i;
  bool found = false;
  bool first = true;
  for (; i < pattern.size(); ++i) {
    // A `]` right after `[` or `[!` is a member, as in POSIX.
    if (pattern[i] == ']' && !first) {
      matched = found != negate;
      return i + 1;
    }
    first = false;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) found = true;
      i += 2;
    } else if (pattern[i] == c) {
      found = true;
    }
  }
  matched = c == '[';
  return p + 1;
}

// One pattern element against one character; `next` receives where the element ends.
bool match_one(std::string_view pattern, size_t p, char c, size_t& next) {
  if (pattern[p] == '?') {
    next = p + 1;
    return true;
  }
  if (pattern[p] == '[') {
    bool matched = false;
    next = match_class(pattern, p, c, matched);
    return matched;
  }
  next = p + 1;
  return pattern[p] == c;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  // Greedy with backtracking to the last `*`: linear in practice, and this runs for every fact and
  // every rule, so it must not allocate.
  size_t p = 0, t = 0;
  size_t star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star_p = ++p;
      star_t = t;
      continue;
    }
    size_t next = 0;
    if (p < pattern.size() && match_one(pattern, p, text[t], next)) {
      p = next;
      ++t;
      continue;
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p;
    t = ++star_t;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

GlobSet::GlobSet(const std::vector<std::string>& patterns) {
  for (const auto& p : patterns) {
    const size_t meta = p.find_first_of(kMetaCharacters);
    if (meta != std::string::npos)
      wild_.push_back({p, meta, p.find_first_not_of('*', meta) == std::string::npos});
    else
      owned_.push_back(p);
  }
  for (const auto& p : owned_) exact_.insert(p);  // owned_ no longer grows: the views stay valid
}

bool GlobSet::match(std::string_view text) const {
  if (exact_.count(text)) return true;
  for (const auto& w : wild_)
    if (text.size() >= w.prefix && text.compare(0, w.prefix, w.pattern, 0, w.prefix) == 0 &&
        (w.prefix_only || glob_match(w.pattern, text)))
      return true;
  return false;
}

bool glob_match_any(const std::vector<std::string>& patterns, std::string_view text) {
  for (const auto& pattern : patterns)
    if (glob_match(pattern, text)) return true;
  return false;
}

bool has_glob_chars(std::string_view pattern) {
  return pattern.find_first_of(kMetaCharacters) != std::string_view::npos;
}

bool path_glob_match(std::string_view pattern, std::string_view path) {
  // Two kinds of star defeat the greedy algorithm; paths are short, so a set of reachable path
  // positions per pattern element is cheap. reach[t]: the pattern so far matches path[0, t).
  const size_t n = path.size();
  std::vector<uint8_t> reach(n + 1, 0), next(n + 1, 0);
  reach[0] = 1;
  size_t p = 0;
  while (p < pattern.size()) {
    std::fill(next.begin(), next.end(), uint8_t{0});
    if (pattern[p] == '*') {
      const bool double_star = p + 1 < pattern.size() && pattern[p + 1] == '*';
      size_t after = double_star ? p + 2 : p + 1;
      if (double_star && after < pattern.size() && pattern[after] == '/') {
        // `**/` matches zero or more whole directories: "a/**/b" matches "a/b" and "a/x/y/b".
        bool open = false;
        for (size_t t = 0; t <= n; ++t) {
          if (reach[t])
            next[t] = 1, open = true;
          else if (open && t > 0 && path[t - 1] == '/')
            next[t] = 1;
        }
        after += 1;
      } else {
        bool open = false;
        for (size_t t = 0; t <= n; ++t) {
          if (reach[t]) open = true;
          if (open) next[t] = 1;
          if (!double_star && t < n && path[t] == '/') open = false;
        }
      }
      p = after;
    } else {
      size_t after = p + 1;
      if (pattern[p] == '[') {
        bool ignored = false;
        after = match_class(pattern, p, '\0', ignored);
      }
      for (size_t t = 0; t < n; ++t) {
        if (!reach[t]) continue;
        size_t unused = 0;
        const bool separator = path[t] == '/';
        // Only a literal `/` matches a separator: `?` and classes stay inside one component.
        if (separator ? pattern[p] == '/' : match_one(pattern, p, path[t], unused)) next[t + 1] = 1;
      }
      p = after;
    }
    reach.swap(next);
  }
  return reach[n] != 0;
}

}  // namespace kgate
