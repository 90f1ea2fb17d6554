// The rule catalogue as Markdown: docs/rules.md's generated section is this output (tools/update-rules-doc.sh).
#include <algorithm>
#include <array>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "analyzers/report/report.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

namespace {

namespace fs = std::filesystem;

// The rule areas (folders of rules/) in the order the README shows them, with their headings.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kAreas{{
    {"scope", "Scope violations (F)"},
    {"timing", "Timing attacks (T)"},
    {"semantic", "Semantic attacks (M)"},
    {"cpp", "C++ side"},
    {"metrics", "Maintainability (thresholds on docs/metrics.md's metrics)"},
    {"input", "Input"},
    {"meta", "Suppressions"},
}};

// The folder of a rule file directly under rules_dir (its first path component); "" for a top-level file.
std::string area_of(const Rule& rule, const fs::path& rules_dir) {
  const fs::path file(rule.file);
  fs::path relative = file.lexically_relative(rules_dir);
  if (relative.empty() || *relative.begin() == "..") relative = file.parent_path().filename() / file.filename();
  if (std::distance(relative.begin(), relative.end()) < 2) return "";
  return relative.begin()->string();
}

// Plain text safe inside a table cell: no line breaks, and the characters Markdown would read as a
// column break, emphasis (`__global__`), code or HTML escaped.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r')
      out += ' ';
    else if (c == '|' || c == '\\' || c == '*' || c == '_' || c == '`' || c == '<')
      out += std::string("\\") + c;
    else
      out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string joined(const std::vector<std::string>& items, std::string_view empty) {
  if (items.empty()) return std::string(empty);
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

// Sort key of a technique id: F*, T*, M* first in that order, then other letters; numbers numerically.
static std::tuple<int, std::string, long, std::string> technique_key(const std::string& id) {
  size_t digits = id.find_first_of("0123456789");
  if (digits == std::string::npos) digits = id.size();
  const std::string prefix = id.substr(0, digits);
  static const std::map<std::string, int> kOrder{{"F", 0}, {"T", 1}, {"M", 2}};
  const auto at = kOrder.find(prefix);
  long number = 0;
  for (size_t i = digits; i < id.size() && id[i] >= '0' && id[i] <= '9' && number < 1000000000L; ++i)
    number = number * 10 + (id[i] - '0');
  return {at == kOrder.end() ? 3 : at->second, prefix, number, id};
}

bool technique_less(const std::string& a, const std::string& b) { return technique_key(a) < technique_key(b); }

void write_rules_markdown(std::ostream& out, const RuleSet& rules, const fs::path& rules_dir) {
  std::map<std::string, std::vector<const Rule*>> by_area;  // rules() is already sorted by id
  for (const auto& rule : rules.rules()) by_area[area_of(rule, rules_dir)].push_back(&rule);

  // Known areas in README order, then any other folder alphabetically, then top-level files.
  std::vector<std::pair<std::string, std::string>> areas;
  for (const auto& [folder, heading] : kAreas)
    if (by_area.count(std::string(folder))) areas.emplace_back(folder, heading);
  for (const auto& [folder, list] : by_area) {
    const bool known = std::any_of(kAreas.begin(), kAreas.end(), [&](const auto& a) { return a.first == folder; });
    if (!known && !folder.empty()) areas.emplace_back(folder, folder);
  }
  if (by_area.count("")) areas.emplace_back("", "Other");

  out << "Generated from the " << rules.size()
      << " rule files (`rules/<area>/<id>.yaml`) by `kgate rules --format markdown`; "
      << "run `tools/update-rules-doc.sh` after changing a rule.\n";
  for (const auto& [folder, heading] : areas) {
    out << "\n### " << heading << "\n\n";
    out << "| rule | severity | techniques | languages | summary |\n";
    out << "|---|---|---|---|---|\n";
    for (const Rule* rule : by_area[folder]) {
      std::vector<std::string> techniques = rule->techniques;
      std::sort(techniques.begin(), techniques.end(), technique_less);
      out << "| `" << rule->id << "` | " << to_string(rule->severity) << " | " << joined(techniques, "—") << " | "
          << joined(rule->languages, "all") << " | " << cell(rule->summary) << " |\n";
    }
  }

  std::map<std::string, std::set<std::string>> by_technique;
  for (const auto& rule : rules.rules())
    for (const auto& technique : rule.techniques) by_technique[technique].insert(rule.id);
  std::vector<std::string> techniques;
  for (const auto& [technique, ids] : by_technique) techniques.push_back(technique);
  std::sort(techniques.begin(), techniques.end(), technique_less);

  out << "\n### Techniques → rules\n\n";
  out << "Technique ids are those of the threat catalogue (`docs/threats.md`).\n\n";
  out << "| technique | rules |\n";
  out << "|---|---|\n";
  for (const auto& technique : techniques) {
    std::string ids;
    for (const auto& id : by_technique[technique]) ids += (ids.empty() ? "`" : ", `") + id + "`";
    out << "| " << technique << " | " << ids << " |\n";
  }
}

}  // namespace kgate
