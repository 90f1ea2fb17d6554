// report.html from records: counts, verdicts per folder and harness, escaping of hostile strings, the
// packed details, metric and runtime plots, and the page's size.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "analyzers/audit/html_escape.h"
#include "analyzers/audit/html_report.h"
#include "analyzers/audit/progress.h"
#include "analyzers/audit/svg_plot.h"

using kgate::audit::render_html_report;
using kgate::audit::ReportCatalogue;

namespace {

// The page's packed details (#kgate-details), unpacked as the browser does: base64, then zlib.
nlohmann::json unpack(const std::string& html) {
  const std::string open = "<pre id=\"kgate-details\" hidden>";
  const size_t at = html.find(open);
  if (at == std::string::npos) return nullptr;
  const size_t begin = at + open.size();
  const std::string encoded = html.substr(begin, html.find("</pre>", begin) - begin);
  std::string packed(encoded.size(), '\0');
  const int n =
      EVP_DecodeBlock(reinterpret_cast<unsigned char*>(packed.data()),
                      reinterpret_cast<const unsigned char*>(encoded.data()), static_cast<int>(encoded.size()));
  size_t pad = 0;  // EVP_DecodeBlock counts base64 padding as zero bytes
  for (size_t k = encoded.size(); k > 0 && encoded[k - 1] == '=' && pad < 2; --k) ++pad;
  if (n < 0 || static_cast<size_t>(n) < pad) return nullptr;
  packed.resize(static_cast<size_t>(n) - pad);
  for (uLongf size = 1 << 20; size <= (1u << 28); size *= 4) {
    std::string out(size, '\0');
    uLongf got = size;
    const int rc = uncompress(reinterpret_cast<Bytef*>(out.data()), &got, reinterpret_cast<const Bytef*>(packed.data()),
                              static_cast<uLong>(packed.size()));
    if (rc == Z_OK) return nlohmann::json::parse(out.substr(0, got));
    if (rc != Z_BUF_ERROR) return nullptr;
  }
  return nullptr;
}

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
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;.py"), std::string::npos);
  // The excerpt travels packed, as data: the page's script builds it with textContent.
  const nlohmann::json details = unpack(html);
  ASSERT_EQ(details.size(), 1u);
  EXPECT_EQ(details[0]["findings"][0]["lines"][0], "</pre><script>alert(3)</script>");
  EXPECT_EQ(details[0]["findings"][0]["message"], "</pre><script>alert(2)</script>");
}

TEST(AuditHtml, LeadsWithVerdictsPerFolderAndHarnessAndTheTopReasons) {
  std::vector<nlohmann::json> records = {record("/a/kb/x.py", "reject", {{"fallback", "error"}, {"w", "warning"}}),
                                         record("/a/kb/y.py", "pass", {}),
                                         record("/a/gm/z.py", "unjudged", {{"entry-not-found", "error"}}),
                                         record("/a/top.py", "reject", {{"fallback", "error"}, {"fallback", "error"}})};
  records[0]["harness"] = "kernelbench";
  records[1]["harness"] = "kernelbench";
  records[2]["harness"] = "gpumode";
  records[1]["runtime"] = {{"verdict", "fail"}, {"reasons", {{{"id", "mismatch"}, {"message", "m"}}}}};
  ReportCatalogue catalogue;
  catalogue.summaries["fallback"] = "PyTorch does the work";
  const std::string html = render_html_report(records, catalogue, "t");
  EXPECT_NE(html.find("<code id=\"common\">/a/</code>"), std::string::npos);
  const auto row = [&html](const std::string& group) {
    const size_t at = html.find("<tr data-group=\"" + group + "\">");
    return at == std::string::npos ? std::string() : html.substr(at, html.find("</tr>", at) - at);
  };
  EXPECT_NE(row("kb").find("data-count=\"files\">2<"), std::string::npos) << row("kb");
  EXPECT_NE(row("kb").find("data-count=\"pass\">1<"), std::string::npos) << row("kb");
  EXPECT_NE(row("kb").find("data-count=\"runtime-fail\">1<"), std::string::npos) << row("kb");
  EXPECT_NE(row(".").find("data-count=\"reject\">1<"), std::string::npos) << row(".");
  EXPECT_NE(row("gpumode").find("data-count=\"unjudged\">1<"), std::string::npos) << row("gpumode");
  EXPECT_NE(row("(none)").find("data-count=\"files\">1<"), std::string::npos) << row("(none)");
  // Top reasons count files, not findings; a warning is no reason.
  EXPECT_NE(html.find("<tr data-reason=\"fallback\"><td>static</td><td><code>fallback</code></td><td class=\"num\" "
                      "data-count=\"files\">2</td><td>PyTorch does the work</td>"),
            std::string::npos);
  EXPECT_EQ(html.find("data-reason=\"w\""), std::string::npos);
  EXPECT_NE(html.find("<tr data-runtime-reason=\"mismatch\">"), std::string::npos);
  // Unjudged files apart, before the file table; the histograms after it.
  EXPECT_LT(html.find("id=\"unjudged\""), html.find("id=\"files\""));
  EXPECT_NE(html.find("gm/z.py</a></td><td>static</td>"), std::string::npos);
  EXPECT_LT(html.find("id=\"files\""), html.find("Metric distributions"));
}

// An auditor's page stays small: under 1 MB per 1,000 files with findings and excerpts.
TEST(AuditHtml, ThousandFilesFitInOneMegabyte) {
  std::vector<nlohmann::json> records;
  for (int i = 0; i < 1000; ++i) {
    nlohmann::json r = record("/audit/run/folder" + std::to_string(i % 7) + "/submission_" + std::to_string(i) + ".py",
                              i % 3 ? "reject" : "pass", {});
    r["harness"] = "kernelbench";
    for (int k = 0; k < 4; ++k) {
      nlohmann::json lines = nlohmann::json::array();
      for (int l = 0; l < 7; ++l)
        lines.push_back("        out = torch.nn.functional.layer_norm(x_" + std::to_string(i) + ", (n,), w, b)  # " +
                        std::to_string(l));
      r["findings"].push_back({{"rule", k % 2 ? "torch-function-in-forward" : "forward-reaches-no-kernel"},
                               {"severity", "error"},
                               {"line", 10 + k},
                               {"col", 9},
                               {"message",
                                "ModelNew.forward calls torch.nn.functional.layer_norm: PyTorch does this "
                                "work, not the submission's kernel (file " +
                                    std::to_string(i) + ")"},
                               {"excerpt", {{"first_line", 7 + k}, {"lines", lines}}}});
    }
    records.push_back(r);
  }
  const std::string html = render_html_report(records, {}, "t");
  EXPECT_LT(html.size(), 1000000u) << html.size() << " bytes";
  EXPECT_EQ(unpack(html).size(), 1000u);
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
