// The HTML report: counts are computed here once, and every string from a record is escaped.
#include "analyzers/audit/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/audit/html_escape.h"
#include "analyzers/audit/report_details.h"
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
th{background:#f0f2f5;font-weight:600;white-space:nowrap}#files td{white-space:nowrap}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
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
// reader sees the worst files first. A file's details (findings with excerpts, runtime reasons) are
// unpacked from #kgate-details when its path is opened (#file-N) and built with textContent only.
// `data-ready` tells a headless check that the script ran, including the details the URL names.
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
var unpacked=null;
function unpack(){if(unpacked)return unpacked;var packed=document.getElementById('kgate-details');
 if(!packed||typeof DecompressionStream==='undefined'){unpacked=Promise.resolve(null);return unpacked;}
 try{var bin=atob(packed.textContent.trim());var bytes=new Uint8Array(bin.length);
  for(var i=0;i<bin.length;i++)bytes[i]=bin.charCodeAt(i);
  var stream=new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  unpacked=new Response(stream).text().then(JSON.parse).catch(function(){return null;});}
 catch(e){unpacked=Promise.resolve(null);}
 return unpacked;}
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=text;return e;}
function show(index){var body=document.getElementById('detail-body');if(!body)return Promise.resolve();
 var row=document.querySelector('tr[data-index="'+index+'"]');
 return unpack().then(function(all){body.textContent='';
  if(!all||!all[index]){body.appendChild(el('p','muted','The details could not be unpacked in this browser; they are in results.jsonl.'));return;}
  var d=all[index];var common=document.getElementById('common');
  body.appendChild(el('h3',null,(common?common.textContent:'')+(row?row.cells[0].textContent:'')));
  if(d.runtime){var rt=d.runtime;body.appendChild(el('p',null,'runtime: '+(rt.verdict||(rt.error!==undefined?'error':rt.skipped!==undefined?'skipped':''))));
   (rt.reasons||[]).forEach(function(r){body.appendChild(el('div','finding',(r.id||'')+': '+(r.message||'')));});
   if(rt.error!==undefined)body.appendChild(el('div','finding',String(rt.error)));
   if(rt.skipped!==undefined)body.appendChild(el('div','finding',String(rt.skipped)));}
  if(!d.findings.length)body.appendChild(el('p','muted','no findings'));
  d.findings.forEach(function(f){var div=el('div','finding');
   div.appendChild(el('span','sev-'+(f.severity||''),f.severity||''));div.appendChild(document.createTextNode(' '));
   div.appendChild(el('code',null,f.rule||''));
   div.appendChild(el('span','where',' line '+(f.line||0)+', col '+(f.col||0)+': '));
   div.appendChild(document.createTextNode(f.message||''));
   if(f.lines){var pre=el('pre','excerpt');var n=f.first_line||1;var from=f.line||0,to=Math.max(from,f.end_line||0);
    f.lines.forEach(function(line){var span=el('span',n>=from&&n<=to?'hit':'');span.appendChild(el('i',null,String(n)));
     span.appendChild(document.createTextNode(line));pre.appendChild(span);n++;});div.appendChild(pre);}
   body.appendChild(div);});});}
function fromHash(){var m=/^#file-([0-9]+)$/.exec(location.hash);return m?show(parseInt(m[1],10)):Promise.resolve();}
window.addEventListener('hashchange',function(){fromHash();});
fromHash().then(function(){document.body.setAttribute('data-ready','1');});
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

}  // namespace

std::map<std::string, double> numeric_metrics(const nlohmann::json& metrics) {
  std::map<std::string, double> out;
  flatten(metrics, "", 0, out);
  return out;
}

namespace {

// Verdict counts of one group of files (a folder, a harness profile): static and runtime side by side.
struct Verdicts {
  size_t files = 0, pass = 0, reject = 0, unjudged = 0, not_a_submission = 0;
  size_t runtime_pass = 0, runtime_fail = 0, runtime_other = 0;  // other: unjudged, error, skipped
};

std::string runtime_verdict(const nlohmann::json& record) {
  const auto rt = record.find("runtime");
  if (rt == record.end() || !rt->is_object()) return {};
  if (const auto v = rt->find("verdict"); v != rt->end() && v->is_string()) return v->get<std::string>();
  if (rt->contains("error")) return "error";
  if (rt->contains("skipped")) return "skipped";
  return {};
}

void tally(Verdicts& v, const std::string& verdict, const std::string& runtime) {
  ++v.files;
  v.pass += verdict == "pass";
  v.reject += verdict == "reject";
  v.unjudged += verdict == "unjudged";
  v.not_a_submission += verdict == "not-a-submission";
  v.runtime_pass += runtime == "pass";
  v.runtime_fail += runtime == "fail";
  v.runtime_other += !runtime.empty() && runtime != "pass" && runtime != "fail";
}

std::string cell(const char* key, size_t value) {
  return "<td class=\"num\" data-count=\"" + std::string(key) + "\">" + std::to_string(value) + "</td>";
}

std::string verdict_table(const std::string& id, const std::string& first,
                          const std::map<std::string, Verdicts>& groups, bool runtime) {
  std::string html = "<table id=\"" + id + "\" class=\"sortable\"><thead><tr><th>" + first +
                     "</th><th class=\"num\" data-type=\"num\">files</th><th class=\"num\" data-type=\"num\">pass</th>"
                     "<th class=\"num\" data-type=\"num\">reject</th><th class=\"num\" data-type=\"num\">unjudged</th>"
                     "<th class=\"num\" data-type=\"num\">not a submission</th>";
  if (runtime)
    html +=
        "<th class=\"num\" data-type=\"num\">runtime pass</th><th class=\"num\" data-type=\"num\">runtime fail</th>"
        "<th class=\"num\" data-type=\"num\">runtime other</th>";
  html += "</tr></thead><tbody>";
  for (const auto& [name, v] : groups) {
    html += "<tr data-group=\"" + html_escape(name) + "\"><td>" + html_escape(name) + "</td>" + cell("files", v.files) +
            cell("pass", v.pass) + cell("reject", v.reject) + cell("unjudged", v.unjudged) +
            cell("not-a-submission", v.not_a_submission);
    if (runtime)
      html += cell("runtime-pass", v.runtime_pass) + cell("runtime-fail", v.runtime_fail) +
              cell("runtime-other", v.runtime_other);
    html += "</tr>";
  }
  return html + "</tbody></table>";
}

// The directory every path shares; a group is the first folder below it ("." for files directly in it).
std::string common_directory(const std::vector<const nlohmann::json*>& records) {
  std::optional<std::string> common;
  for (const auto* r : records) {
    std::string path = str(*r, "path");
    const size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    if (!common) {
      common = dir;
      continue;
    }
    size_t n = 0;
    while (n < common->size() && n < dir.size() && (*common)[n] == dir[n]) ++n;
    const size_t cut = common->substr(0, n).rfind('/');
    common->resize(cut == std::string::npos ? 0 : cut + 1);
  }
  return common.value_or("");
}

std::string folder_of(const std::string& path, const std::string& common) {
  const std::string rest = path.compare(0, common.size(), common) == 0 ? path.substr(common.size()) : path;
  const size_t slash = rest.find('/');
  return slash == std::string::npos ? "." : rest.substr(0, slash);
}

// The first error's rule: the reason a rejected or unjudged file leads with.
std::string first_error(const nlohmann::json& record) {
  for (const auto& f : findings_of(record))
    if (str(f, "severity") == "error") return str(f, "rule");
  return {};
}

// Why a file was not judged: its first error, else its first finding (an empty file's warning).
std::string first_error_message(const nlohmann::json& record) {
  for (const auto& f : findings_of(record))
    if (str(f, "severity") == "error") return str(f, "message");
  return findings_of(record).empty() ? std::string() : str(findings_of(record)[0], "message");
}

}  // namespace

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
  std::map<std::string, Verdicts> per_folder, per_harness;
  std::map<std::string, size_t> static_reasons, runtime_reasons;  // reason -> files it rejected
  std::set<std::string> metric_names;
  std::vector<std::map<std::string, double>> metrics_of;
  bool any_speedup = false, any_runtime = false;
  const std::string common = common_directory(records);
  // Paths in the tables are shown below the common folder, which the folder table names.
  const auto shown = [&common](const std::string& path) {
    return path.compare(0, common.size(), common) == 0 ? path.substr(common.size()) : path;
  };
  for (const auto* r : records) {
    const std::string path = str(*r, "path");
    // Unjudged files (no harness entry found) and not-a-submission files are never counted as passed.
    const std::string verdict = str(*r, "verdict"), runtime = runtime_verdict(*r);
    passed += verdict == "pass";
    rejected += verdict == "reject";
    unjudged += verdict == "unjudged";
    not_a_submission += verdict == "not-a-submission";
    suppressed += count(*r, "suppressed");
    any_runtime = any_runtime || !runtime.empty();
    tally(per_folder[folder_of(path, common)], verdict, runtime);
    const std::string harness = str(*r, "harness");
    tally(per_harness[harness.empty() ? "(none)" : harness], verdict, runtime);
    std::set<std::string> error_rules;
    for (const auto& f : findings_of(*r)) {
      const std::string rule = str(f, "rule"), severity = str(f, "severity");
      (severity == "error" ? errors : severity == "warning" ? warnings : notes)++;
      if (severity == "error" && verdict != "pass") error_rules.insert(rule);
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
    for (const auto& rule : error_rules) ++static_reasons[rule];
    if (runtime == "fail" || runtime == "unjudged") {
      std::set<std::string> ids;
      if (const auto rt = r->find("runtime"); rt != r->end() && rt->contains("reasons") && (*rt)["reasons"].is_array())
        for (const auto& reason : (*rt)["reasons"]) ids.insert(str(reason, "id"));
      for (const auto& id : ids) ++runtime_reasons[id];
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

  // What an auditor reads first: verdicts per folder and per harness profile, then the top reasons.
  html +=
      "<section class=\"cols\"><div><h2>Verdicts per folder</h2><p class=\"muted\">Folders below <code id=\"common\">" +
      html_escape(common) + "</code></p><div class=\"scroll\">" +
      verdict_table("folders", "folder", per_folder, any_runtime) +
      "</div></div><div><h2>Verdicts per harness profile</h2><div class=\"scroll\">" +
      verdict_table("harnesses", "harness", per_harness, any_runtime) + "</div></div></section>";
  const auto top = [](const std::map<std::string, size_t>& reasons) {
    std::vector<std::pair<std::string, size_t>> list(reasons.begin(), reasons.end());
    std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (list.size() > 10) list.resize(10);
    return list;
  };
  html +=
      "<section><h2>Top reasons</h2><table id=\"top-reasons\"><thead><tr><th>stage</th><th>reason</th>"
      "<th class=\"num\">files not passed</th><th>what it means</th></tr></thead><tbody>";
  for (const auto& [rule, files] : top(static_reasons)) {
    const auto summary = catalogue.summaries.find(rule);
    html += "<tr data-reason=\"" + html_escape(rule) + "\"><td>static</td><td><code>" + html_escape(rule) +
            "</code></td>" + cell("files", files) + "<td>" +
            html_escape(summary != catalogue.summaries.end() ? summary->second : std::string()) + "</td></tr>";
  }
  for (const auto& [id, files] : top(runtime_reasons))
    html += "<tr data-runtime-reason=\"" + html_escape(id) + "\"><td>runtime</td><td><code>" + html_escape(id) +
            "</code></td>" + cell("files", files) + "<td></td></tr>";
  if (static_reasons.empty() && runtime_reasons.empty())
    html += "<tr><td colspan=\"4\" class=\"muted\">every file passed</td></tr>";
  html += "</tbody></table></section>";

  // Unjudged files apart: the gate could not judge them, so they are neither a pass nor a cheat.
  html += "<section id=\"unjudged\"><h2>Unjudged files</h2>";
  size_t unjudged_rows = 0;
  std::string rows;
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = *records[i];
    const std::string verdict = str(r, "verdict"), runtime = runtime_verdict(r);
    if (verdict != "unjudged" && runtime != "unjudged") continue;
    ++unjudged_rows;
    rows +=
        "<tr><td><a href=\"#file-" + std::to_string(i) + "\">" + html_escape(shown(str(r, "path"))) + "</a></td><td>" +
        html_escape(verdict == "unjudged" ? "static" : "runtime") + "</td><td>" +
        html_escape(verdict == "unjudged" ? first_error_message(r) : std::string("the runtime could not judge it")) +
        "</td></tr>";
  }
  if (unjudged_rows == 0)
    html += "<p class=\"muted\">none</p>";
  else
    html += "<div class=\"scroll\"><table><thead><tr><th>path</th><th>stage</th><th>why</th></tr></thead><tbody>" +
            rows + "</tbody></table></div>";
  html += "</section>";

  // The file table: static and runtime verdicts side by side; a path opens its details below.
  html +=
      "<section><h2>Files</h2><div class=\"scroll\"><table id=\"files\" "
      "class=\"sortable\"><thead><tr><th>path</th><th>verdict</th>"
      "<th class=\"num\" data-type=\"num\">findings</th><th>harness</th><th>first error</th>";
  if (any_runtime) html += "<th>runtime</th>";
  if (any_speedup) html += "<th class=\"num\" data-type=\"num\">speedup</th>";
  html += "</tr></thead><tbody>";
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = *records[i];
    const std::string verdict = str(r, "verdict");
    html += "<tr data-index=\"" + std::to_string(i) + "\"><td><a href=\"#file-" + std::to_string(i) + "\">" +
            html_escape(shown(str(r, "path"))) + "</a></td><td class=\"verdict-" + html_escape(verdict) + "\">" +
            html_escape(verdict) + "</td><td class=\"num\">" + std::to_string(findings_of(r).size()) + "</td><td>" +
            html_escape(str(r, "harness")) + "</td><td><code>" + html_escape(first_error(r)) + "</code></td>";
    if (any_runtime) {
      // The runtime verdict, with its reasons (or why there is none) as the cell's title.
      const std::string runtime = runtime_verdict(r);
      std::string title;
      if (const auto rt = r.find("runtime"); rt != r.end() && rt->is_object()) {
        if (rt->contains("reasons") && (*rt)["reasons"].is_array())
          for (const auto& reason : (*rt)["reasons"]) title += str(reason, "id") + ": " + str(reason, "message") + "\n";
        for (const char* key : {"error", "skipped"})
          if (rt->contains(key)) title += (*rt)[key].is_string() ? (*rt)[key].get<std::string>() : (*rt)[key].dump();
      }
      html += "<td class=\"runtime-" + html_escape(runtime) + "\" title=\"" + html_escape(title) + "\">" +
              html_escape(runtime) + "</td>";
    }
    if (any_speedup) {
      auto s = number_at(r, "/runtime/speedup"_json_pointer);
      html += "<td class=\"num\">" + (s ? num(*s) : std::string{}) + "</td>";
    }
    html += "</tr>";
  }
  html += "</tbody></table></div></section>";
  html +=
      "<section id=\"details\"><h2>Details</h2><div id=\"detail-body\"><p class=\"muted\">Open a file's path to see "
      "its findings with their source, and its runtime reasons.</p></div></section>";

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
            html_escape(t.severity) + "</td><td>" + html_escape(techniques) + "</td>" + cell("findings", t.findings) +
            cell("files", t.files.size()) + "</tr>";
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
    html += "<tr data-technique=\"" + html_escape(id) + "\"><td>" + html_escape(id) + "</td>" +
            cell("findings", t.findings) + cell("files", t.files.size()) + "<td>" + html_escape(rules) + "</td></tr>";
  }
  if (per_technique.empty()) html += "<tr><td colspan=\"4\" class=\"muted\">no technique findings</td></tr>";
  html +=
      "</tbody></table></div><p class=\"muted\">A finding counts once for each technique its rule names; input and "
      "meta rules name none.</p></div></section>";

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

  // Metric histograms last: each file's values are in the log (results.jsonl).
  html += "<section><h2>Metric distributions</h2><div class=\"plots\">";
  for (const auto& name : metric_names) {
    std::vector<double> values;
    for (const auto& m : metrics_of)
      if (auto at = m.find(name); at != m.end()) values.push_back(at->second);
    html += svg_histogram(name, values);
  }
  if (metric_names.empty()) html += "<p class=\"muted\">no numeric metrics in the records</p>";
  html += "</div></section>";

  // Every file's details, packed (report_details.h); base64 holds no markup character.
  html += "<pre id=\"kgate-details\" hidden>" + deflate_base64(details_of(records).dump()) + "</pre>";
  html += "</main><script>" + std::string(kScript) + "</script></body></html>\n";
  return html;
}

}  // namespace kgate::audit
