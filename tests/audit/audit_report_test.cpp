// report.html from records: counts, escaping of hostile strings, metric and runtime plots.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyzers/audit/html_escape.h"
#include "analyzers/audit/html_report.h"
#include "analyzers/audit/progress.h"
#include "analyzers/audit/svg_plot.h"

using kgate::audit::render_html_report;
using kgate::audit::ReportCatalogue;

namespace {

size_t occurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

nlohmann::json record(const std::string& path, const std::string& verdict,
                      const std::vector<std::pair<std::string, std::string>>& findings) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [rule, severity] : findings)
    list.push_back({{"rule", rule}, {"severity", severity}, {"message", "m"}, {"line", 1}, {"col", 1}});
  return {{"path", path},
          {"verdict", verdict},
          {"findings", list},
          {"metrics", {{"lines", 10}, {"halstead", {{"volume", 3.5}}}}}};
}

}  // namespace

TEST(AuditHtml, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(kgate::audit::html_escape("<a href=\"x\" title='y'>&</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
}

TEST(AuditHtml, CountsPerRuleAndTechnique) {
  ReportCatalogue catalogue;
  catalogue.techniques = {{"timer-patch", {"T6"}}, {"fallback", {"F1", "F3"}}};
  const std::vector<nlohmann::json> records = {
      record("a.py", "reject", {{"timer-patch", "error"}, {"fallback", "error"}}),
      record("b.py", "reject", {{"fallback", "error"}, {"fallback", "warning"}}), record("c.py", "pass", {})};
  const std::string html = render_html_report(records, catalogue, "t");
  EXPECT_NE(html.find("<dd id=\"count-files\">3</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dd id=\"count-rejected\">2</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dd id=\"count-passed\">1</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dd id=\"count-findings\">4</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dd id=\"count-warnings\">1</dd>"), std::string::npos);
  EXPECT_NE(html.find("<tr data-rule=\"fallback\">"), std::string::npos);
  EXPECT_NE(html.find("data-count=\"findings\">3</td><td class=\"num\" data-count=\"files\">2</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr data-technique=\"F3\"><td>F3</td><td class=\"num\" data-count=\"findings\">3</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr data-technique=\"T6\"><td>T6</td><td class=\"num\" data-count=\"findings\">1</td>"),
            std::string::npos);
  // One histogram per numeric metric, nested names dotted; no runtime section without runtime fields.
  EXPECT_NE(html.find("aria-label=\"halstead.volume\""), std::string::npos);
  EXPECT_NE(html.find("aria-label=\"lines\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"runtime\""), std::string::npos);
}

TEST(AuditHtml, HostileStringsNeverBecomeMarkup) {
  nlohmann::json r = record("<img src=x onerror=alert(1)>.py", "reject", {{"<script>alert(1)</script>", "error"}});
  r["findings"][0]["message"] = "</pre><script>alert(2)</script>";
  r["findings"][0]["excerpt"] = {{"first_line", 1}, {"lines", {"</pre><script>alert(3)</script>"}}};
  const std::string html = render_html_report({r}, {}, "<title>");
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<script>"), 1u);  // the report's own
  EXPECT_NE(html.find("&lt;/pre&gt;&lt;script&gt;alert(3)"), std::string::npos);
}

TEST(AuditHtml, RuntimeFieldsGiveSpeedupAndRooflinePlots) {
  std::vector<nlohmann::json> records;
  for (int i = 0; i < 4; ++i) {
    nlohmann::json r = record("k" + std::to_string(i) + ".py", "pass", {});
    r["runtime"] = {{"speedup", 0.5 + i},
                    {"roofline",
                     {{"arithmetic_intensity", 2.0 * (i + 1)},
                      {"achieved_gflops", 100.0 * (i + 1)},
                      {"peak_gflops", 60000.0},
                      {"peak_gbps", 3000.0}}}};
    records.push_back(r);
  }
  records.push_back(record("static-only.py", "reject", {{"x", "error"}}));
  const std::string html = render_html_report(records, {}, "t");
  EXPECT_NE(html.find("id=\"runtime\""), std::string::npos);
  EXPECT_NE(html.find("<span id=\"count-speedups\">4</span>"), std::string::npos);
  EXPECT_NE(html.find("<span id=\"count-faster\">3</span>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<circle class=\"dot\""), 4u);
  EXPECT_EQ(occurrences(html, "<polyline class=\"roof\""), 1u);
}

TEST(AuditSvg, HistogramBarsHoldEveryValue) {
  const std::string svg = kgate::audit::svg_histogram("v", {1.5, 2.5, 2.5, 9.0, 7.25}, 4);
  size_t total = 0;
  for (size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at + 1))
    total += std::stoul(svg.substr(at + 7));
  EXPECT_EQ(total, 5u);
  EXPECT_TRUE(kgate::audit::svg_histogram("none", {}).empty());
}

TEST(AuditSvg, IntegerCountsGetOneBarPerValue) {
  const std::string svg = kgate::audit::svg_histogram("launches", {0, 1, 1, 2, 2, 2});
  EXPECT_EQ(occurrences(svg, "<rect class=\"bar\""), 3u);
}

TEST(AuditProgress, LineShowsRateAndEta) {
  const std::string line = kgate::audit::ProgressBar::line(50, 100, 10.0);
  EXPECT_NE(line.find("50/100"), std::string::npos) << line;
  EXPECT_NE(line.find("5.0 files/s"), std::string::npos) << line;
  EXPECT_NE(line.find("ETA 10s"), std::string::npos) << line;
}

TEST(AuditHtml, MistypedFieldsOfAnEditedLogReadAsEmpty) {
  const std::vector<nlohmann::json> records = {
      {{"path", 7}, {"verdict", nullptr}, {"findings", "none"}, {"suppressed", "x"}, {"metrics", {1, 2}}},
      {{"path", "b.py"},
       {"findings", {42, {{"rule", "r"}, {"line", "one"}, {"excerpt", {{"lines", 3}}}}}},
       {"runtime", 5}},
      nlohmann::json::array()};
  std::string html;
  ASSERT_NO_THROW(html = render_html_report(records, {}, "t"));
  EXPECT_NE(html.find("<dd id=\"count-files\">2</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dd id=\"count-findings\">2</dd>"), std::string::npos);
}
