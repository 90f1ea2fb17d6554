// The text report: gcc-style lines that editors and CI log parsers already understand.
#include <algorithm>
#include <iomanip>

#include "analyzers/report/report.h"

namespace kgate {

RunSummary summarize(const std::vector<FileResult>& results) {
  RunSummary summary;
  summary.files = results.size();
  for (const auto& file : results) {
    if (file.verdict == "reject") ++summary.rejected;
    if (file.verdict == "unjudged") ++summary.unjudged;
    if (file.verdict == "not-a-submission") ++summary.not_a_submission;
    summary.suppressed += file.suppressed;
    for (const auto& d : file.findings) {
      switch (d.severity) {
        case Severity::Error:
          ++summary.errors;
          break;
        case Severity::Warning:
          ++summary.warnings;
          break;
        case Severity::Note:
          ++summary.notes;
          break;
      }
      ++summary.per_rule[d.rule];
    }
  }
  return summary;
}

namespace {

std::string plural(size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

}  // namespace

void write_text(std::ostream& out, const std::vector<FileResult>& results, std::string_view unit) {
  for (const auto& file : results) {
    for (const auto& d : file.findings) {
      out << d.path << ':' << d.span.line << ':' << d.span.col << ": " << to_string(d.severity) << ": " << d.message
          << " [" << d.rule << "]\n";
    }
  }
  const RunSummary s = summarize(results);
  // Files that are not a pass for want of an entry, apart from the rejected ones: never read as passes.
  bool header = false;
  for (const auto& file : results) {
    if (file.verdict != "unjudged" && file.verdict != "not-a-submission") continue;
    if (!header) out << "\n";
    header = true;
    out << file.verdict << ": " << file.path
        << " (harness: " << (file.harness.empty() ? "none recognised" : file.harness) << ")\n";
  }
  out << "\nkgate: " << plural(s.files, unit) << " checked, " << s.rejected << " rejected";
  if (s.unjudged) out << ", " << s.unjudged << " unjudged";
  if (s.not_a_submission) out << ", " << s.not_a_submission << " not a submission";
  out << "; " << plural(s.errors, "error") << ", " << plural(s.warnings, "warning") << ", " << plural(s.notes, "note")
      << "; " << s.suppressed << " suppressed\n";
  if (s.per_rule.empty()) return;
  size_t width = 4;
  for (const auto& [rule, count] : s.per_rule) width = std::max(width, rule.size());
  out << "\n  " << std::left << std::setw(static_cast<int>(width)) << "rule" << "  count\n";
  for (const auto& [rule, count] : s.per_rule)
    out << "  " << std::left << std::setw(static_cast<int>(width)) << rule << "  " << std::right << std::setw(5)
        << count << '\n';
}

}  // namespace kgate
