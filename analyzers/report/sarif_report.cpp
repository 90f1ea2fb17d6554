// The SARIF 2.1.0 report, for GitHub code scanning and other SARIF viewers.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "analyzers/core/file_text.h"
#include "analyzers/core/fingerprint.h"
#include "analyzers/core/source.h"
#include "analyzers/report/report.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// YAML's folded `>` leaves a final newline on the rationale.
std::string trimmed(const std::string& text) {
  const size_t end = text.find_last_not_of(" \t\r\n");
  return end == std::string::npos ? std::string() : text.substr(0, end + 1);
}

// help.text and help.markdown say the same thing: what the rule finds, why it matters, where it
// applies and how to suppress it. Everything comes from the rule file.
nlohmann::json help_of(const Rule& rule) {
  const std::string severity(to_string(rule.severity));
  const std::string languages = rule.languages.empty() ? std::string("all") : joined(rule.languages);
  const std::string rationale = trimmed(rule.rationale);
  std::string text = rule.summary + ".\n\n" + rationale;
  std::string markdown = "**" + rule.summary + "**\n\n" + rationale;
  text += "\n\nSeverity: " + severity + ". Languages: " + languages + ".";
  markdown += "\n\n| severity | techniques | languages |\n|---|---|---|\n| " + severity + " | " +
              (rule.techniques.empty() ? std::string("-") : joined(rule.techniques)) + " | " + languages + " |";
  if (!rule.techniques.empty()) text += " Techniques (docs/threats.md): " + joined(rule.techniques) + ".";
  const std::string suppression = "kgate: ignore[" + rule.id + "] -- <reason>";
  text += "\n\nSuppress one finding with the comment `" + suppression + "`.";
  markdown += "\n\nSuppress one finding with the comment `" + suppression + "` (after `#` in Python, `//` in C++).";
  return {{"text", std::move(text)}, {"markdown", std::move(markdown)}};
}

nlohmann::json descriptor(const Rule& rule) {
  const std::string full = rule.rationale.empty() ? rule.summary : trimmed(rule.rationale);
  return {{"id", rule.id},
          {"name", rule.id},
          {"shortDescription", {{"text", rule.summary}}},
          {"fullDescription", {{"text", full}}},
          {"help", help_of(rule)},
          {"defaultConfiguration", {{"level", std::string(to_string(rule.severity))}}},
          // GitHub code scanning shows properties.tags as labels.
          {"properties", {{"techniques", rule.techniques}, {"tags", rule.techniques}}}};
}

// SARIF has no byte columns (columnKind is utf16CodeUnits or unicodeCodePoints), and ours count bytes.
// This turns them into code points, reading each file once; a file that cannot be read (or is plain
// ASCII, where the two agree) keeps its byte columns.
class CodePointColumns {
 public:
  uint32_t column(const std::string& path, uint32_t line, uint32_t byte_col) {
    const SourceFile* file = load(path);
    if (!file || byte_col <= 1) return byte_col;
    const std::string_view text = file->line_text(line);
    const size_t prefix = std::min<size_t>(byte_col - 1, text.size());
    uint32_t points = 0;
    for (size_t i = 0; i < prefix; ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++points;  // not a UTF-8 continuation byte
    return points + 1 + static_cast<uint32_t>(byte_col - 1 - prefix);
  }

 private:
  const SourceFile* load(const std::string& path) {
    auto [at, inserted] = files_.try_emplace(path);
    if (inserted) {
      std::string text = read_file_text(path).value_or("");
      const bool ascii =
          std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
      if (!ascii) at->second = std::make_unique<SourceFile>(path, std::move(text));
    }
    return at->second.get();
  }
  std::map<std::string, std::unique_ptr<SourceFile>> files_;
};

nlohmann::json region_of(const std::string& path, const Span& span, CodePointColumns& columns) {
  const uint32_t start_line = std::max<uint32_t>(span.line, 1);
  const uint32_t start_col = columns.column(path, start_line, std::max<uint32_t>(span.col, 1));
  nlohmann::json region = {{"startLine", start_line}, {"startColumn", start_col}};
  if (span.end_line >= span.line && span.end_line > 0) {
    region["endLine"] = span.end_line;
    // SARIF's endColumn is exclusive and at least startColumn + 1 on one line; ours is exclusive too.
    const uint32_t end_col = span.end_col > 0 ? columns.column(path, span.end_line, span.end_col) : 0;
    if (end_col > 0 && (span.end_line > start_line || end_col > start_col)) region["endColumn"] = end_col;
  }
  return region;
}

nlohmann::json physical_location(const std::string& path, const Span& span, const std::string& base_dir,
                                 CodePointColumns& columns) {
  return {{"artifactLocation", {{"uri", sarif_uri(path, base_dir)}}}, {"region", region_of(path, span, columns)}};
}

}  // namespace

std::string sarif_uri(const std::string& path, const std::string& base_dir) {
  const std::string generic = invocation_relative_path(path, base_dir);
  // Outside the invocation directory no relative reference exists: an absolute file URI then.
  const std::string prefix = (!generic.empty() && generic.front() == '/') ? "file://" : "";
  // RFC 3986: keep unreserved characters and '/', percent-encode the rest (spaces, '#', '%', UTF-8).
  std::string out = prefix;
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : generic) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '.' || c == '_' || c == '~' || c == '/';
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
  CodePointColumns columns;
  for (const auto& file : results) {
    for (const auto& d : file.findings) {
      auto [at, inserted] = rule_index.try_emplace(d.rule, driver_rules.size());
      // A finding of a rule missing from the rules directory still needs a descriptor to point at.
      if (inserted) driver_rules.push_back({{"id", d.rule}, {"shortDescription", {{"text", d.rule}}}});
      nlohmann::json result = {
          {"ruleId", d.rule},
          {"ruleIndex", at->second},
          {"level", std::string(to_string(d.severity))},
          {"message", {{"text", d.message}}},
          {"locations",
           nlohmann::json::array({{{"physicalLocation", physical_location(d.path, d.span, base_dir, columns)}}})},
          {"partialFingerprints", {{"primaryLocationLineHash", d.fingerprint}}}};
      if (!d.related.empty()) {
        nlohmann::json related = nlohmann::json::array();
        for (const auto& r : d.related) {
          related.push_back(
              {{"id", related.size()},
               {"message", {{"text", r.message.empty() ? d.message : r.message}}},
               {"physicalLocation", physical_location(r.path.empty() ? d.path : r.path, r.span, base_dir, columns)}});
        }
        result["relatedLocations"] = std::move(related);
      }
      sarif_results.push_back(std::move(result));
    }
  }
  // What SARIF keeps about a file goes in its artifact's property bag: the verdict and harness profile
  // (an unjudged file is shown apart from a pass even where it has no result line of its own), and the
  // maintainability metrics (docs/metrics.md: file, embedded modules and functions, as `kgate metrics`).
  nlohmann::json artifacts = nlohmann::json::array();
  for (const auto& file : results) {
    nlohmann::json properties = {{"verdict", file.verdict}, {"harness", file.harness}};
    if (file.contract.known()) properties["contract"] = file.contract.dtype;
    const auto it = file.metrics.find("maintainability");
    if (it != file.metrics.end() && it->is_object() && !it->value("file", nlohmann::json()).is_null())
      properties["maintainability"] = *it;
    artifacts.push_back(
        {{"location", {{"uri", sarif_uri(file.path, base_dir)}}}, {"properties", std::move(properties)}});
  }
  nlohmann::json driver = {
      {"name", "kgate"}, {"version", std::string(tool_version)}, {"rules", std::move(driver_rules)}};
  // The schema kept in third_party/sarif/ (tests/sarif checks that they match).
  return {{"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({{{"tool", {{"driver", std::move(driver)}}},
                                           {"columnKind", "unicodeCodePoints"},
                                           {"artifacts", std::move(artifacts)},
                                           {"results", std::move(sarif_results)}}})}};
}

}  // namespace kgate
