// Serialises every fact through the same field tables the rule engine reads.
#include "analyzers/core/facts_json.h"

namespace kgate {
namespace {

nlohmann::json to_json(const FieldValue& v) {
  if (std::holds_alternative<bool>(v)) return std::get<bool>(v);
  if (std::holds_alternative<int64_t>(v)) return std::get<int64_t>(v);
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  if (std::holds_alternative<std::vector<std::string>>(v)) return std::get<std::vector<std::string>>(v);
  return nullptr;
}

}  // namespace

nlohmann::json facts_to_json(const FactSet& facts) {
  nlohmann::json out;
  out["format"] = std::string(to_string(facts.format));
  out["engine"] = facts.engine;
  out["entry"] = facts.function_name(facts.entry);
  nlohmann::json entries = nlohmann::json::array();
  for (int e : facts.entries) entries.push_back(facts.function_name(e));
  out["entries"] = entries;
  nlohmann::json definitions = nlohmann::json::array();
  for (const auto& d : facts.entry_definitions)
    definitions.push_back({{"name", d.name}, {"conditional", d.conditional}, {"line", d.span.line}});
  out["entry_definitions"] = definitions;
  out["harness"] = facts.harness;
  out["harness_reference"] = facts.harness_reference;
  out["contract"] = facts.contract.known()
                        ? nlohmann::json{{"dtype", facts.contract.dtype}, {"source", facts.contract.source}}
                        : nlohmann::json();
  nlohmann::json modules = nlohmann::json::array();
  for (const auto& m : facts.modules)
    modules.push_back({{"language", std::string(to_string(m.language))},
                       {"role", m.role},
                       {"line", m.span.line},
                       {"bytes", m.text.size()},
                       {"extension", m.extension}});
  out["modules"] = modules;
  for (int k = 0; k <= static_cast<int>(FactKind::Input); ++k) {
    auto kind = static_cast<FactKind>(k);
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < fact_count(facts, kind); ++i) {
      nlohmann::json item;
      Span s = fact_span(facts, kind, i);
      item["line"] = s.line;
      item["col"] = s.col;
      for (const auto& name : field_names(kind)) {
        nlohmann::json v = to_json(fact_field(facts, kind, i, name));
        // Keep dumps readable: omit false flags and empty lists.
        if (v.is_boolean() && !v.get<bool>()) continue;
        if (v.is_array() && v.empty()) continue;
        item[name] = v;
      }
      list.push_back(item);
    }
    out[std::string(to_string(kind))] = list;
  }
  return out;
}

}  // namespace kgate
