// Emitters: every format prints the same FileResult records (text for people, JSON, SARIF 2.1.0).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/pipeline/pipeline.h"

namespace kgate {

class RuleSet;

struct RunSummary {
  size_t files = 0;
  size_t rejected = 0;          // verdict reject
  size_t unjudged = 0;          // verdict unjudged: no entry found (never a pass)
  size_t not_a_submission = 0;  // verdict not-a-submission: a kernel module or the harness's reference
  size_t errors = 0;
  size_t warnings = 0;
  size_t notes = 0;
  size_t suppressed = 0;
  std::map<std::string, size_t> per_rule;  // finding count by rule id (sorted)
  size_t findings() const { return errors + warnings + notes; }
};

RunSummary summarize(const std::vector<FileResult>& results);

// gcc style: `path:line:col: severity: message [rule-id]`, then the summary and a count per rule.
// `unit` names what each result is in the summary line: "file", or "submission" (check --submission).
void write_text(std::ostream& out, const std::vector<FileResult>& results, std::string_view unit = "file");

// One file's object of the JSON report: {path, format, verdict, findings:[...], metrics}.
nlohmann::json file_to_json(const FileResult& file);

// The JSON report object (docs/cli.md): {"files":[{path, format, harness, verdict, findings:[...], metrics}],
// "summary":{files, rejected, unjudged, not_a_submission, findings}}.
nlohmann::json to_json(const std::vector<FileResult>& results);

// `kgate metrics`: per file, the file's metrics, then one row per embedded module and per function
// (line, name, CC, Halstead volume and effort, SLOC, LLOC, comment lines, the three MI forms).
void write_metrics_text(std::ostream& out, const std::vector<FileResult>& results);
// `kgate metrics --format json`: {"files":[{path, format, metrics}]}, the metrics as check's JSON has them.
nlohmann::json metrics_to_json(const std::vector<FileResult>& results);

// SARIF 2.1.0 with one run. `rules` (may be null) describes every rule in tool.driver.rules; findings
// of rules it lacks get a minimal descriptor. URIs are relative to `base_dir` when under it.
nlohmann::json to_sarif(const std::vector<FileResult>& results, const RuleSet* rules, std::string_view tool_version,
                        const std::string& base_dir);

// The path as SARIF wants it: relative to base_dir where possible, '/' separators, percent-encoded.
std::string sarif_uri(const std::string& path, const std::string& base_dir);

// Order of technique ids (docs/threats.md): F*, T*, M*, then other letters; numbers numerically (T2 < T10).
bool technique_less(const std::string& a, const std::string& b);

// The rule catalogue as Markdown (`kgate rules --format markdown`, the README's rules section): an intro
// line, one table per rule area (the folder under `rules_dir`: scope, timing, semantic, cpp, input, meta),
// then a technique -> rule ids table. Deterministic: rules by id, techniques F*, T*, M* numerically.
void write_rules_markdown(std::ostream& out, const RuleSet& rules, const std::filesystem::path& rules_dir);

// The fact model as Markdown (`kgate facts --reference`, docs/rule-format.md's generated section): every
// fact kind with its fields and their value types, read from the field tables of core/facts.cpp.
void write_facts_markdown(std::ostream& out);

}  // namespace kgate
