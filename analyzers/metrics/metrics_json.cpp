// Serialises metrics through facts.h's metric_fields, the one list of metric names.
#include "analyzers/metrics/metrics_json.h"

namespace kgate::metrics {
namespace {

void add_fields(nlohmann::json& out, const CodeMetrics& m) {
  for (const auto& [name, value] : metric_fields(m)) {
    const std::string key(name);
    if (const auto* i = std::get_if<int64_t>(&value))
      out[key] = *i;
    else if (const auto* d = std::get_if<double>(&value))
      out[key] = *d;
  }
}

}  // namespace

nlohmann::json maintainability_json(const FactSet& facts) {
  nlohmann::json out = {
      {"file", nullptr}, {"modules", nlohmann::json::array()}, {"functions", nlohmann::json::array()}};
  for (size_t i = 0; i < facts.modules.size(); ++i) {
    const Module& m = facts.modules[i];
    if (!m.metrics.measured) continue;
    nlohmann::json item = {{"role", m.role},
                           {"language", std::string(to_string(m.language))},
                           {"line", m.span.line},
                           {"counted_by", std::string(m.metrics.counted_by)}};
    add_fields(item, m.metrics);
    if (i == 0) {
      item.erase("role");
      out["file"] = item;
    } else {
      out["modules"].push_back(item);
    }
  }
  for (const Function& f : facts.functions) {
    if (!f.metrics.measured) continue;
    const Language language = f.module >= 0 && f.module < static_cast<int>(facts.modules.size())
                                  ? facts.modules[f.module].language
                                  : Language::Python;
    nlohmann::json item = {{"name", f.name},
                           {"qualname", f.qualname},
                           {"kind", std::string(to_string(f.kind))},
                           {"language", std::string(to_string(language))},
                           {"line", f.span.line},
                           {"col", f.span.col},
                           {"counted_by", std::string(f.metrics.counted_by)}};
    // A function of a sibling source file: its line is the load call's, not its own.
    if (f.module > 0 && f.module < static_cast<int>(facts.modules.size()) &&
        facts.modules[f.module].role == "load-file")
      item["sibling_file"] = true;
    add_fields(item, f.metrics);
    out["functions"].push_back(item);
  }
  return out;
}

}  // namespace kgate::metrics
