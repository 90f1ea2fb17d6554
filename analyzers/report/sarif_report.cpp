// The SARIF 2.1.0 report, for GitHub code scanning and other SARIF viewers.
#include <filesystem>
#include <map>
#include <system_error>

#include "analyzers/report/report.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

namespace {

nlohmann::json descriptor(const Rule& rule) {
  std::string help = rule.rationale;
  if (!rule.techniques.empty()) {
    help += "\nTechniques:";
    for (const auto& t : rule.techniques) help += " " + t;
  }
  return {{"id", rule.id},
          {"name", rule.id},
          {"shortDescription", {{"text", rule.summary}}},
          {"fullDescription", {{"text", rule.rationale}}},
          {"help", {{"text", help}}},
          {"defaultConfiguration", {{"level", std::string(to_string(rule.severity))}}},
          {"properties", {{"techniques", rule.techniques}}}};
}

}  // namespace

std::string sarif_uri(const std::string& path, const std::string& base_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(path);
  if (p.is_absolute() && !base_dir.empty()) {
    const fs::path relative = p.lexically_normal().lexically_relative(fs::absolute(base_dir, ec).lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") p = relative;
  }
  const std::string generic = p.lexically_normal().generic_string();
  // RFC 3986: keep unreserved characters and '/', percent-encode the rest (spaces, '#', '%', UTF-8).
  std::string out;
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : generic) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                      c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

nlohmann::json to_sarif(const std::vector<FileResult>& results, const RuleSet* rules, std::string_view tool_version,
                        const std::string& base_dir) {
  nlohmann::json driver_rules = nlohmann::json::array();
  std::map<std::string, size_t> rule_index;
  if (rules) {
    for (const Rule& rule : rules->rules()) {
      rule_index[rule.id] = driver_rules.size();
      driver_rules.push_back(descriptor(rule));
    }
  }
  nlohmann::json sarif_results = nlohmann::json::array();
  for (const auto& file : results) {
    for (const auto& d : file.findings) {
      auto [at, inserted] = rule_index.try_emplace(d.rule, driver_rules.size());
      // A finding of a rule missing from the rules directory still needs a descriptor to point at.
      if (inserted) driver_rules.push_back({{"id", d.rule}, {"shortDescription", {{"text", d.rule}}}});
      nlohmann::json region = {{"startLine", std::max<uint32_t>(d.span.line, 1)}, {"startColumn", std::max<uint32_t>(d.span.col, 1)}};
      if (d.span.end_line >= d.span.line && d.span.end_line > 0) {
        region["endLine"] = d.span.end_line;
        if (d.span.end_col > 0) region["endColumn"] = d.span.end_col;
      }
      nlohmann::json result = {
          {"ruleId", d.rule},
          {"ruleIndex", at->second},
          {"level", std::string(to_string(d.severity))},
          {"message", {{"text", d.message}}},
          {"locations",
           nlohmann::json::array({{{"physicalLocation",
                                    {{"artifactLocation", {{"uri", sarif_uri(d.path, base_dir)}}}, {"region", std::move(region)}}}}})},
          {"partialFingerprints", {{"primaryLocationLineHash", d.fingerprint}}}};
      sarif_results.push_back(std::move(result));
    }
  }
  nlohmann::json driver = {{"name", "kgate"},
                           {"version", std::string(tool_version)},
                           {"rules", std::move(driver_rules)}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({{{"tool", {{"driver", std::move(driver)}}},
                                            {"columnKind", "utf8CodeUnits"},
                                            {"results", std::move(sarif_results)}}})}};
}

}  // namespace kgate
