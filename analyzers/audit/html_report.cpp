// The HTML report: counts are computed here once, and every string from a record is escaped.
#include "analyzers/audit/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

#include "analyzers/audit/html_escape.h"
#include "analyzers/audit/svg_plot.h"
#include "analyzers/report/report.h"

namespace kgate::audit {

namespace {

constexpr const char* kStyle = R"css(
:root{--fg:#1d232a;--muted:#5c6670;--line:#d8dde3;--bg:#f6f7f9;--err:#b42318;--warn:#b54708;--note:#175cd3;--ok:#067647}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header{background:#14202e;color:#fff;padding:16px 28px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#b8c4d0}
main{padding:18px 28px;max-width:1400px}section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:0 0 18px}
h2{font-size:16px;margin:0 0 10px}.cards{display:flex;flex-wrap:wrap;gap:10px;margin:0}
.card{border:1px solid var(--line);border-radius:6px;padding:8px 14px;min-width:110px;background:#fbfcfd}
.card dd{margin:0;font-size:22px;font-weight:600}.card dt{color:var(--muted);font-size:12px}
.card.reject dd{color:var(--err)}.card.pass dd{color:var(--ok)}
.cols{display:flex;flex-wrap:wrap;gap:18px}.cols>div{flex:1 1 420px;min-width:0}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f0f2f5;font-weight:600;white-space:nowrap}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
table.sortable th{cursor:pointer;user-select:none}table.sortable th[aria-sort=ascending]::after{content:" \25B2"}
table.sortable th[aria-sort=descending]::after{content:" \25BC"}.scroll{overflow-x:auto;max-height:520px;overflow-y:auto}
.verdict-reject{color:var(--err);font-weight:600}.verdict-pass{color:var(--ok);font-weight:600}.verdict-unjudged{color:var(--err);font-weight:600}
.sev-error{color:var(--err)}.sev-warning{color:var(--warn)}.sev-note{color:var(--note)}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
details{border-top:1px solid var(--line);padding:6px 0}summary{cursor:pointer}
.finding{margin:8px 0 8px 14px}.finding .where{color:var(--muted)}
pre.excerpt{background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:6px 0;margin:4px 0 0;overflow-x:auto}
pre.excerpt span{display:block;padding:0 8px}pre.excerpt span.hit{background:#fff1c2}pre.excerpt i{color:#8a939c;font-style:normal;display:inline-block;width:4em}
.plots{display:flex;flex-wrap:wrap;gap:12px}svg.plot{background:#fff;border:1px solid var(--line);border-radius:6px}
svg .bar{fill:#4f7cac}svg .axis{stroke:#8a939c}svg .tick{font-size:10px;fill:#5c6670}svg .plot-title{font-size:12px;font-weight:600;fill:#1d232a}
svg .dot{fill:#c2410c;fill-opacity:.8}svg .roof{fill:none;stroke:#1d232a;stroke-width:1.5}.muted{color:var(--muted)}
)css";

// Sorting by clicking a header; on load the file table is sorted by findings (most first) so a
// reader sees the worst files first. `data-ready` tells a headless check that the script ran.
constexpr const char* kScript = R"js(
(function(){
function cellValue(row, index, numeric){var c=row.cells[index];var v=c.getAttribute('data-value');if(v===null)v=c.textContent;
 if(!numeric)return v.toLowerCase();var n=parseFloat(v);return isNaN(n)?-Infinity:n;}
function sortTable(table, index, descending){var th=table.tHead.rows[0].cells[index];var numeric=th.getAttribute('data-type')==='num';
 var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
 rows.sort(function(a,b){var x=cellValue(a,index,numeric),y=cellValue(b,index,numeric);var r=x<y?-1:x>y?1:0;
  if(r===0){r=cellValue(a,0,false)<cellValue(b,0,false)?-1:1;return r;}return descending?-r:r;});
 rows.forEach(function(r){body.appendChild(r);});
 Array.prototype.forEach.call(table.tHead.rows[0].cells,function(c){c.removeAttribute('aria-sort');});
 th.setAttribute('aria-sort',descending?'descending':'ascending');}
Array.prototype.forEach.call(document.querySelectorAll('table.sortable'),function(table){
 Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,index){th.addEventListener('click',function(){
  sortTable(table,index,th.getAttribute('aria-sort')==='ascending');});});});
var files=document.getElementById('files');if(files&&files.tBodies[0].rows.length){sortTable(files,2,true);}
document.body.setAttribute('data-ready','1');
})();
)js";

std::string num(double value) {
  char buffer[32];
  if (value == std::floor(value) && std::fabs(value) < 1e15)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

// Field readers that accept whatever a hand-edited log holds: a missing or mistyped field reads as
// empty or zero instead of throwing.
std::string str(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto at = object.find(key);
  return at != object.end() && at->is_string() ? at->get<std::string>() : std::string{};
}

size_t count(const nlohmann::json& object, const char* key, size_t fallback = 0) {
  if (!object.is_object()) return fallback;
  const auto at = object.find(key);
  if (at == object.end() || !at->is_number()) return fallback;
  const double value = at->get<double>();
  return value > 0 && value < 1e15 ? static_cast<size_t>(value) : 0;
}

const nlohmann::json& findings_of(const nlohmann::json& record) {
  static const nlohmann::json none = nlohmann::json::array();
  const auto at = record.find("findings");
  return at != record.end() && at->is_array() ? *at : none;
}

std::optional<double> number_at(const nlohmann::json& object, const nlohmann::json::json_pointer& pointer) {
  if (!object.contains(pointer)) return std::nullopt;
  const auto& value = object.at(pointer);
  if (!value.is_number()) return std::nullopt;
  return value.get<double>();
}

void flatten(const nlohmann::json& value, const std::string& prefix, int depth, std::map<std::string, double>& out) {
  if (!value.is_object() || depth > 3) return;
  for (const auto& [key, child] : value.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (child.is_number())
      out[name] = child.get<double>();
    else if (child.is_object())
      flatten(child, name, depth + 1, out);
  }
}

struct Tally {
  size_t findings = 0;
  std::set<std::string> files;
  std::set<std::string> rules;
  std::string severity;  // the most severe seen (rules: their severity after config)
};

int severity_rank(const std::string& s) { return s == "error" ? 2 : s == "warning" ? 1 : 0; }

std::string card(const std::string& id, const std::string& label, size_t value, const std::string& extra_class = "") {
  return "<div class=\"card " + extra_class + "\"><dd id=\"count-" + id + "\">" + std::to_string(value) + "</dd><dt>" +
         label + "</dt></div>";
}

std::string excerpt_html(const nlohmann::json& finding) {
  if (!finding.is_object()) return {};
  const auto at = finding.find("excerpt");
  if (at == finding.end() || !at->is_object() || !at->contains("lines")) return {};
  if (!(*at)["lines"].is_array()) return {};
  const size_t first = count(*at, "first_line", 1);
  const size_t hit_from = count(finding, "line"), hit_to = std::max(hit_from, count(finding, "end_line"));
  std::string html = "<pre class=\"excerpt\">";
  size_t n = first;
  for (const auto& line : (*at)["lines"]) {
    const bool hit = n >= hit_from && n <= hit_to;
    html += std::string("<span") + (hit ? " class=\"hit\"" : "") + "><i>" + std::to_string(n) + "</i>" +
            html_escape(line.is_string() ? line.get<std::string>() : std::string{}) + "</span>";
    ++n;
  }
  return html + "</pre>";
}

}  // namespace

std::map<std::string, double> numeric_metrics(const nlohmann::json& metrics) {
  std::map<std::string, double> out;
  flatten(metrics, "", 0, out);
  return out;
}

std::string render_html_report(const std::vector<nlohmann::json>& input, const ReportCatalogue& catalogue,
                               const std::string& title) {
  std::vector<const nlohmann::json*> records;
  for (const auto& r : input)
    if (r.is_object()) records.push_back(&r);
  std::sort(records.begin(), records.end(),
            [](const auto* a, const auto* b) { return str(*a, "path") < str(*b, "path"); });

  size_t passed = 0, rejected = 0, unjudged = 0, not_a_submission = 0, errors = 0, warnings = 0, notes = 0,
         suppressed = 0;
  std::map<std::string, Tally> per_rule;
  std::map<std::string, Tally, bool (*)(const std::string&, const std::string&)> per_technique(technique_less);
  std::set<std::string> metric_names;
  std::vector<std::map<std::string, double>> metrics_of;
  bool any_speedup = false;
  for (const auto* r : records) {
    const std::string path = str(*r, "path");
    // Unjudged files (no harness entry found) and not-a-submission files are never counted as passed.
    const std::string verdict = str(*r, "verdict");
    passed += verdict == "pass";
    rejected += verdict == "reject";
    unjudged += verdict == "unjudged";
    not_a_submission += verdict == "not-a-submission";
    suppressed += count(*r, "suppressed");
    for (const auto& f : findings_of(*r)) {
      const std::string rule = str(f, "rule"), severity = str(f, "severity");
      (severity == "error" ? errors : severity == "warning" ? warnings : notes)++;
      Tally& t = per_rule[rule];
      ++t.findings;
      t.files.insert(path);
      if (t.severity.empty() || severity_rank(severity) > severity_rank(t.severity)) t.severity = severity;
      const auto techniques = catalogue.techniques.find(rule);
      if (techniques == catalogue.techniques.end()) continue;
      for (const auto& id : techniques->second) {
        Tally& tt = per_technique[id];
        ++tt.findings;
        tt.files.insert(path);
        tt.rules.insert(rule);
      }
    }
    const auto metrics = r->find("metrics");
    metrics_of.push_back(metrics != r->end() ? numeric_metrics(*metrics) : std::map<std::string, double>{});
    for (const auto& [name, value] : metrics_of.back()) metric_names.insert(name);
    any_speedup = any_speedup || number_at(*r, "/runtime/speedup"_json_pointer).has_value();
  }
  const size_t findings = errors + warnings + notes;

  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
      "content=\"width=device-width\">";
  html += "<title>" + html_escape(title) + "</title><style>" + kStyle + "</style></head><body>";
  html += "<header><h1>" + html_escape(title) + "</h1><p>" + std::to_string(records.size()) + " files, " +
          std::to_string(rejected) + " rejected, " + std::to_string(unjudged) + " unjudged, " +
          std::to_string(findings) + " findings</p></header><main>";

  html += "<section><h2>Summary</h2><dl class=\"cards\" id=\"summary\">";
  html += card("files", "files", records.size()) + card("passed", "passed", passed, "pass") +
          card("rejected", "rejected", rejected, "reject") + card("unjudged", "unjudged", unjudged, "reject") +
          card("not-a-submission", "not a submission", not_a_submission) + card("findings", "findings", findings) +
          card("errors", "errors", errors) + card("warnings", "warnings", warnings) + card("notes", "notes", notes) +
          card("suppressed", "suppressed", suppressed);
  html += "</dl></section>";

  // Counts per rule and per technique, side by side.
  html +=
      "<section class=\"cols\"><div><h2>Findings per rule</h2><div class=\"scroll\"><table id=\"rules\" "
      "class=\"sortable\"><thead><tr>"
      "<th>rule</th><th>severity</th><th>techniques</th><th class=\"num\" data-type=\"num\">findings</th>"
      "<th class=\"num\" data-type=\"num\">files</th></tr></thead><tbody>";
  for (const auto& [rule, t] : per_rule) {
    std::string techniques;
    if (auto at = catalogue.techniques.find(rule); at != catalogue.techniques.end()) {
      std::vector<std::string> ids = at->second;
      std::sort(ids.begin(), ids.end(), technique_less);
      for (const auto& id : ids) techniques += (techniques.empty() ? "" : ", ") + id;
    }
    std::string summary;
    if (auto at = catalogue.summaries.find(rule); at != catalogue.summaries.end()) summary = at->second;
    html += "<tr data-rule=\"" + html_escape(rule) + "\"><td><code title=\"" + html_escape(summary) + "\">" +
            html_escape(rule) + "</code></td><td class=\"sev-" + html_escape(t.severity) + "\">" +
            html_escape(t.severity) + "</td><td>" + html_escape(techniques) +
            "</td><td class=\"num\" data-count=\"findings\">" + std::to_string(t.findings) +
            "</td><td class=\"num\" data-count=\"files\">" + std::to_string(t.files.size()) + "</td></tr>";
  }
  if (per_rule.empty()) html += "<tr><td colspan=\"5\" class=\"muted\">no findings</td></tr>";
  html +=
      "</tbody></table></div></div><div><h2>Findings per technique</h2><div class=\"scroll\"><table id=\"techniques\" "
      "class=\"sortable\">"
      "<thead><tr><th>technique</th><th class=\"num\" data-type=\"num\">findings</th><th class=\"num\" "
      "data-type=\"num\">files</th>"
      "<th>rules</th></tr></thead><tbody>";
  for (const auto& [id, t] : per_technique) {
    std::string rules;
    for (const auto& rule : t.rules) rules += (rules.empty() ? "" : ", ") + rule;
    html += "<tr data-technique=\"" + html_escape(id) + "\"><td>" + html_escape(id) +
            "</td><td class=\"num\" data-count=\"findings\">" + std::to_string(t.findings) +
            "</td><td class=\"num\" data-count=\"files\">" + std::to_string(t.files.size()) + "</td><td>" +
            html_escape(rules) + "</td></tr>";
  }
  if (per_technique.empty()) html += "<tr><td colspan=\"4\" class=\"muted\">no technique findings</td></tr>";
  html +=
      "</tbody></table></div><p class=\"muted\">A finding counts once for each technique its rule names; input and "
      "meta rules name none.</p></div></section>";

  // Plots: one histogram per numeric metric, then the runtime plots.
  html += "<section><h2>Metric distributions</h2><div class=\"plots\">";
  for (const auto& name : metric_names) {
    std::vector<double> values;
    for (const auto& m : metrics_of)
      if (auto at = m.find(name); at != m.end()) values.push_back(at->second);
    html += svg_histogram(name, values);
  }
  if (metric_names.empty()) html += "<p class=\"muted\">no numeric metrics in the records</p>";
  html += "</div></section>";

  if (any_speedup) {
    std::vector<double> speedups;
    std::vector<RooflinePoint> points;
    std::optional<double> peak_gflops, peak_gbps;
    for (const auto* r : records) {
      if (auto s = number_at(*r, "/runtime/speedup"_json_pointer)) speedups.push_back(*s);
      auto intensity = number_at(*r, "/runtime/roofline/arithmetic_intensity"_json_pointer);
      auto gflops = number_at(*r, "/runtime/roofline/achieved_gflops"_json_pointer);
      if (intensity && gflops) points.push_back({str(*r, "path"), *intensity, *gflops});
      if (!peak_gflops) peak_gflops = number_at(*r, "/runtime/roofline/peak_gflops"_json_pointer);
      if (!peak_gbps) peak_gbps = number_at(*r, "/runtime/roofline/peak_gbps"_json_pointer);
    }
    const auto faster = std::count_if(speedups.begin(), speedups.end(), [](double s) { return s > 1.0; });
    html += "<section id=\"runtime\"><h2>Runtime</h2><p><span id=\"count-speedups\">" +
            std::to_string(speedups.size()) + "</span> files with a measured speedup, <span id=\"count-faster\">" +
            std::to_string(faster) + "</span> faster than the reference.</p><div class=\"plots\">" +
            svg_histogram("speedup over the reference", speedups, 20, true) +
            svg_roofline(points, peak_gflops, peak_gbps) + "</div></section>";
  }

  // The file table: sortable, one column per metric.
  html +=
      "<section><h2>Files</h2><div class=\"scroll\"><table id=\"files\" "
      "class=\"sortable\"><thead><tr><th>path</th><th>verdict</th>"
      "<th class=\"num\" data-type=\"num\">findings</th>";
  const bool any_runtime = std::any_of(records.begin(), records.end(), [](const auto* r) {
    return r->contains("runtime") && (*r)["runtime"].is_object();
  });
  if (any_runtime) html += "<th>runtime</th>";
  if (any_speedup) html += "<th class=\"num\" data-type=\"num\">speedup</th>";
  for (const auto& name : metric_names) html += "<th class=\"num\" data-type=\"num\">" + html_escape(name) + "</th>";
  html += "</tr></thead><tbody>";
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = *records[i];
    const std::string verdict = str(r, "verdict");
    const size_t finding_count = findings_of(r).size();
    html += "<tr data-path=\"" + html_escape(str(r, "path")) + "\"><td><a href=\"#file-" + std::to_string(i) + "\">" +
            html_escape(str(r, "path")) + "</a></td><td class=\"verdict-" + html_escape(verdict) + "\">" +
            html_escape(verdict) + "</td><td class=\"num\">" + std::to_string(finding_count) + "</td>";
    if (any_runtime) {
      // The runtime verdict, or why there is none (skipped, error), with the reasons as the cell's title.
      std::string cell, title;
      if (r.contains("runtime") && r["runtime"].is_object()) {
        const auto& rt = r["runtime"];
        if (rt.contains("verdict") && rt["verdict"].is_string()) {
          cell = rt["verdict"].get<std::string>();
          if (rt.contains("reasons") && rt["reasons"].is_array())
            for (const auto& reason : rt["reasons"]) title += str(reason, "id") + ": " + str(reason, "message") + "\n";
        } else if (rt.contains("error")) {
          cell = "error";
          title = rt["error"].is_string() ? rt["error"].get<std::string>() : rt["error"].dump();
        } else if (rt.contains("skipped")) {
          cell = "skipped";
          title = rt["skipped"].is_string() ? rt["skipped"].get<std::string>() : rt["skipped"].dump();
        }
      }
      html += "<td class=\"runtime-" + html_escape(cell) + "\" title=\"" + html_escape(title) + "\">" +
              html_escape(cell) + "</td>";
    }
    if (any_speedup) {
      auto s = number_at(r, "/runtime/speedup"_json_pointer);
      html += "<td class=\"num\">" + (s ? num(*s) : std::string{}) + "</td>";
    }
    for (const auto& name : metric_names) {
      auto at = metrics_of[i].find(name);
      html += "<td class=\"num\">" + (at != metrics_of[i].end() ? num(at->second) : std::string{}) + "</td>";
    }
    html += "</tr>";
  }
  html += "</tbody></table></div></section>";

  // Findings with their source excerpts, one collapsible block per file.
  html += "<section><h2>Findings</h2>";
  if (findings == 0) html += "<p class=\"muted\">no findings</p>";
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = *records[i];
    if (findings_of(r).empty()) continue;
    html += "<details id=\"file-" + std::to_string(i) + "\"" + (str(r, "verdict") == "reject" ? " open" : "") +
            "><summary><code>" + html_escape(str(r, "path")) + "</code> &middot; <span class=\"verdict-" +
            html_escape(str(r, "verdict")) + "\">" + html_escape(str(r, "verdict")) + "</span> &middot; " +
            std::to_string(findings_of(r).size()) + " finding(s)</summary>";
    for (const auto& f : findings_of(r)) {
      html += "<div class=\"finding\"><span class=\"sev-" + html_escape(str(f, "severity")) + "\">" +
              html_escape(str(f, "severity")) + "</span> <code>" + html_escape(str(f, "rule")) +
              "</code> <span class=\"where\">line " + std::to_string(count(f, "line")) + ", col " +
              std::to_string(count(f, "col")) + "</span>: " + html_escape(str(f, "message")) + excerpt_html(f) +
              "</div>";
    }
    html += "</details>";
  }
  html += "</section></main><script>" + std::string(kScript) + "</script></body></html>\n";
  return html;
}

}  // namespace kgate::audit
