// Parsing suppression markers and applying them to findings, with the three meta diagnostics.
#include "analyzers/core/suppressions.h"

#include <algorithm>
#include <optional>

namespace kgate {

namespace {

std::string trim(std::string_view text, std::string_view strip = " \t\r\n") {
  const size_t begin = text.find_first_not_of(strip);
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(strip);
  return std::string(text.substr(begin, end - begin + 1));
}

Diagnostic meta(std::string_view rule, Severity severity, std::string message, const SourceFile& file, Span span) {
  Diagnostic d;
  d.rule = std::string(rule);
  d.severity = severity;
  d.message = std::move(message);
  d.path = file.path;
  d.span = span;
  d.engine = "suppressions";
  return d;
}

bool is_word_or_dash(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

size_t skip_blanks(std::string_view text, size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  return at;
}

// One marker: the comment opener, `kgate:`, the form, an optional [ids], then the reason.
struct Marker {
  size_t opener = 0;  // byte offset of `#` or `//`
  bool next_line = false;
  bool has_rule_list = false;
  std::string_view ids;   // between the brackets
  std::string_view rest;  // after the form or the list, up to a line terminator
};

// The marker whose opener starts at `at`, if one does. A hand-written scanner, not std::regex:
// libstdc++'s regex recurses once per character, so a long comment overflowed the stack (reproduced by
// fuzz_suppressions). It accepts what the regex
// (#|//)[ \t]*kgate:[ \t]*(ignore-next-line|ignore)(?![-\w])(\[([^\]\n]*)\])?(.*) accepted.
std::optional<Marker> marker_at(std::string_view text, size_t at) {
  size_t i = at;
  if (text[i] == '#') {
    i += 1;
  } else if (text.substr(i, 2) == "//") {
    i += 2;
  } else {
    return std::nullopt;
  }
  i = skip_blanks(text, i);
  if (text.substr(i, 6) != "kgate:") return std::nullopt;
  i = skip_blanks(text, i + 6);
  Marker m;
  m.opener = at;
  const auto form_ends_at = [&](size_t end) { return end >= text.size() || !is_word_or_dash(text[end]); };
  if (text.substr(i, 16) == "ignore-next-line" && form_ends_at(i + 16)) {
    m.next_line = true;
    i += 16;
  } else if (text.substr(i, 6) == "ignore" && form_ends_at(i + 6)) {
    i += 6;
  } else {
    return std::nullopt;
  }
  if (i < text.size() && text[i] == '[') {
    const size_t close = text.find_first_of("]\n", i + 1);
    if (close != std::string_view::npos && text[close] == ']') {
      m.has_rule_list = true;
      m.ids = text.substr(i + 1, close - i - 1);
      i = close + 1;
    }
  }
  const size_t end = std::min(text.find_first_of("\r\n", i), text.size());  // `.` stops at line terminators
  m.rest = text.substr(i, end - i);
  return m;
}

}  // namespace

std::vector<Suppression> parse_suppressions(const SourceFile& file) {
  std::vector<Suppression> out;
  for (uint32_t line = 1; line <= file.lines.line_count(); ++line) {
    const std::string_view text = file.line_text(line);
    if (text.find("kgate:") == std::string_view::npos) continue;
    std::optional<Marker> m;
    for (size_t at = 0; at < text.size() && !m; ++at) m = marker_at(text, at);
    if (!m) continue;
    Suppression s;
    s.next_line = m->next_line;
    s.target_line = s.next_line ? line + 1 : line;
    s.has_rule_list = m->has_rule_list;
    if (s.has_rule_list) {
      const std::string_view ids = m->ids;
      size_t start = 0;
      while (start <= ids.size()) {
        size_t comma = ids.find(',', start);
        if (comma == std::string_view::npos) comma = ids.size();
        std::string id = trim(ids.substr(start, comma - start));
        if (!id.empty()) s.rules.push_back(std::move(id));
        start = comma + 1;
      }
    }
    // "ignore[x] -- why", "ignore[x]: why" and "ignore[x] # why" all carry the reason "why".
    s.reason = trim(m->rest, " \t\r-:#");
    const auto column = static_cast<uint32_t>(m->opener) + 1;
    s.span = {line, column, line, static_cast<uint32_t>(text.size()) + 1};
    out.push_back(std::move(s));
  }
  return out;
}

SuppressionResult apply_suppressions(const SourceFile& file, std::vector<Diagnostic>& findings,
                                     const std::function<bool(std::string_view)>& known_rule,
                                     const std::function<bool(std::string_view)>& rule_ran) {
  SuppressionResult result;
  const std::vector<Suppression> suppressions = parse_suppressions(file);
  for (const Suppression& s : suppressions) {
    const std::string form = s.next_line ? "ignore-next-line" : "ignore";
    if (!s.has_rule_list || s.rules.empty()) {
      result.meta.push_back(meta(kSuppressionUnknownRule, Severity::Error,
                                 "suppression names no rule: write kgate: " + form + "[rule-id] reason", file, s.span));
      continue;
    }
    if (s.reason.empty())
      result.meta.push_back(meta(kSuppressionMissingReason, Severity::Error,
                                 "suppression of " + s.rules.front() + (s.rules.size() > 1 ? " and others" : "") +
                                     " has no reason: write the reason after the ']'",
                                 file, s.span));
    for (const std::string& rule : s.rules) {
      if (!known_rule(rule)) {
        result.meta.push_back(meta(kSuppressionUnknownRule, Severity::Error,
                                   "suppression names unknown rule '" + rule + "'", file, s.span));
        continue;
      }
      const auto before = findings.size();
      findings.erase(
          std::remove_if(findings.begin(), findings.end(),
                         [&](const Diagnostic& d) { return d.rule == rule && d.span.line == s.target_line; }),
          findings.end());
      const size_t removed = before - findings.size();
      result.suppressed += removed;
      if (removed == 0 && rule_ran(rule))
        result.meta.push_back(
            meta(kSuppressionUnused, Severity::Warning,
                 "suppression of " + rule + " on line " + std::to_string(s.target_line) + " suppresses nothing", file,
                 s.span));
    }
  }
  return result;
}

}  // namespace kgate
