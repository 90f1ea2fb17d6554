// `kgate metrics` output: a fixed-width table for people, and JSON for scripts.
#include <cstdio>
#include <string>

#include "analyzers/report/report.h"

namespace kgate {
namespace {

std::string row(const std::string& where, const std::string& name, const nlohmann::json& m) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "%-8s %-36s %4lld %9.1f %11.1f %5lld %5lld %5lld %7.1f %6.1f %6.1f",
                where.c_str(), name.size() > 36 ? (name.substr(0, 33) + "...").c_str() : name.c_str(),
                m.value("cyclomatic", 0LL), m.value("halstead_volume", 0.0), m.value("halstead_effort", 0.0),
                m.value("sloc", 0LL), m.value("lloc", 0LL), m.value("comment_lines", 0LL), m.value("mi_original", 0.0),
                m.value("mi_normalized", 0.0), m.value("mi_comments", 0.0));
  return buffer;
}

}  // namespace

void write_metrics_text(std::ostream& out, const std::vector<FileResult>& results) {
  char header[256];
  std::snprintf(header, sizeof header, "%-8s %-36s %4s %9s %11s %5s %5s %5s %7s %6s %6s", "line", "function", "CC",
                "volume", "effort", "SLOC", "LLOC", "cmt", "MI", "MI100", "MIcmt");
  for (const FileResult& r : results) {
    out << r.path << "\n";
    const nlohmann::json m =
        r.metrics.contains("maintainability") ? r.metrics["maintainability"] : nlohmann::json::object();
    if (!m.contains("file") || m["file"].is_null()) {
      out << "  (no metrics: the file was not analysed)\n\n";
      continue;
    }
    out << "  " << header << "\n";
    out << "  " << row("-", "<file>", m["file"]) << "\n";
    for (const auto& mod : m["modules"])
      out << "  " << row(std::to_string(mod.value("line", 0)), "<" + mod.value("role", std::string()) + ">", mod)
          << "\n";
    for (const auto& f : m["functions"])
      out << "  " << row(std::to_string(f.value("line", 0)), f.value("qualname", std::string()), f) << "\n";
    out << "\n";
  }
}

nlohmann::json metrics_to_json(const std::vector<FileResult>& results) {
  nlohmann::json files = nlohmann::json::array();
  for (const FileResult& r : results)
    files.push_back({{"path", r.path}, {"format", std::string(to_string(r.format))}, {"metrics", r.metrics}});
  return {{"files", std::move(files)}};
}

}  // namespace kgate
