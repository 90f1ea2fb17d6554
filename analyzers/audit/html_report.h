// OUT/report.html: a self-contained page (inline CSS, JS and SVG; nothing fetched) summarising an
// audit's records: counts per rule and technique, a sortable file table, findings with excerpts,
// metric histograms, and speedup/roofline plots where records carry runtime fields.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kgate::audit {

struct ReportCatalogue {
  std::map<std::string, std::vector<std::string>> techniques;  // rule id -> technique ids (docs/threats.md)
  std::map<std::string, std::string> summaries;                // rule id -> one-line summary
};

// Numeric leaves of a metrics object with dotted names ("lines", "halstead.volume"); arrays are not
// descended into (per-function lists), so each name has at most one value per file.
std::map<std::string, double> numeric_metrics(const nlohmann::json& metrics);

// The page for `records` (audit records: audit.h). Runtime fields read, when present:
// runtime.speedup (number), runtime.roofline.{arithmetic_intensity, achieved_gflops, peak_gflops, peak_gbps}.
std::string render_html_report(const std::vector<nlohmann::json>& records, const ReportCatalogue& catalogue,
                               const std::string& title);

}  // namespace kgate::audit
