// Parsing suppression markers and applying them to findings, with the three meta diagnostics.
#include "analyzers/core/suppressions.h"

#include <algorithm>
#include <regex>

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

}  // namespace

std::vector<Suppression> parse_suppressions(const SourceFile& file) {
  // The comment opener, `kgate:`, the form, an optional [ids], then the reason.
  static const std::regex kMarker(R"((#|//)[ \t]*kgate:[ \t]*(ignore-next-line|ignore)(?![-\w])(\[([^\]\n]*)\])?(.*))");
  std::vector<Suppression> out;
  for (uint32_t line = 1; line <= file.lines.line_count(); ++line) {
    const std::string_view text = file.line_text(line);
    if (text.find("kgate:") == std::string_view::npos) continue;  // regex only where it can match
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_search(text.begin(), text.end(), m, kMarker)) continue;
    Suppression s;
    s.next_line = m[2].str() == "ignore-next-line";
    s.target_line = s.next_line ? line + 1 : line;
    s.has_rule_list = m[3].matched;
    if (s.has_rule_list) {
      const std::string ids = m[4].str();
      size_t start = 0;
      while (start <= ids.size()) {
        size_t comma = ids.find(',', start);
        if (comma == std::string::npos) comma = ids.size();
        std::string id = trim(std::string_view(ids).substr(start, comma - start));
        if (!id.empty()) s.rules.push_back(std::move(id));
        start = comma + 1;
      }
    }
    // "ignore[x] -- why", "ignore[x]: why" and "ignore[x] # why" all carry the reason "why".
    s.reason = trim(m[5].str(), " \t\r-:#");
    const auto column = static_cast<uint32_t>(m.position(0)) + 1;
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
        result.meta.push_back(meta(kSuppressionUnknownRule, Severity::Error, "suppression names unknown rule '" + rule + "'", file, s.span));
        continue;
      }
      const auto before = findings.size();
      findings.erase(std::remove_if(findings.begin(), findings.end(),
                                    [&](const Diagnostic& d) { return d.rule == rule && d.span.line == s.target_line; }),
                     findings.end());
      const size_t removed = before - findings.size();
      result.suppressed += removed;
      if (removed == 0 && rule_ran(rule))
        result.meta.push_back(meta(kSuppressionUnused, Severity::Warning,
                                   "suppression of " + rule + " on line " + std::to_string(s.target_line) + " suppresses nothing",
                                   file, s.span));
    }
  }
  return result;
}

}  // namespace kgate
