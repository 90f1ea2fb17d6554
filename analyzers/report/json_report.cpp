// The JSON report: the object shape that docs/cli.md promises to scripts.
#include "analyzers/report/report.h"

namespace kgate {

nlohmann::json file_to_json(const FileResult& file) {
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& d : file.findings) {
    findings.push_back({{"rule", d.rule},
                        {"severity", std::string(to_string(d.severity))},
                        {"message", d.message},
                        {"line", d.span.line},
                        {"col", d.span.col},
                        {"end_line", d.span.end_line},
                        {"end_col", d.span.end_col},
                        {"fingerprint", d.fingerprint},
                        {"engine", d.engine}});
    // A finding in another file than the result's own: a bundle's sidecar (`solution.py::helpers.py`),
    // or a file of a submission directory (check --submission).
    if (!d.path.empty() && d.path != file.path) findings.back()["path"] = d.path;
  }
  return {{"path", file.path},
          {"format", std::string(to_string(file.format))},
          {"harness", file.harness},
          {"contract", file.contract.known()
                           ? nlohmann::json{{"dtype", file.contract.dtype}, {"source", file.contract.source}}
                           : nlohmann::json()},
          {"verdict", file.verdict},
          {"findings", std::move(findings)},
          {"metrics", file.metrics}};
}

nlohmann::json to_json(const std::vector<FileResult>& results) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& file : results) files.push_back(file_to_json(file));
  const RunSummary s = summarize(results);
  return {{"files", std::move(files)},
          {"summary",
           {{"files", s.files},
            {"rejected", s.rejected},
            {"unjudged", s.unjudged},
            {"not_a_submission", s.not_a_submission},
            {"findings", s.findings()}}}};
}

}  // namespace kgate
