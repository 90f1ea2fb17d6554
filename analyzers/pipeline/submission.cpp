// Folding a directory's file results into the verdict of one submission.
#include "analyzers/pipeline/submission.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "analyzers/pipeline/pipeline_finding.h"

namespace kgate {

namespace {

std::string normal(const std::string& path) { return std::filesystem::path(path).lexically_normal().string(); }

}  // namespace

FileResult fold_submission(const std::string& dir, const std::vector<FileResult>& files) {
  std::set<std::string> read;  // sources some entry read: judged through it
  for (const FileResult& f : files)
    for (const std::string& s : f.sources_read) read.insert(normal(s));

  FileResult folded;
  folded.path = dir;
  folded.metrics = nlohmann::json::object();
  std::vector<const FileResult*> entries;
  size_t members = 0;
  bool member_rejected = false;
  for (const FileResult& f : files) {
    if (read.count(normal(f.path))) continue;
    ++members;
    if (f.entry_found && f.verdict != "not-a-submission") entries.push_back(&f);
    // A file without an entry of its own (a helper, a kernel module) is a part of the submission: what
    // rejects it rejects the submission, but its missing entry is the fold's question, not its own.
    for (const Diagnostic& d : f.findings) {
      if (!f.entry_found && (d.rule == "entry-not-found" || d.rule == "modelnew-missing")) continue;
      folded.findings.push_back(d);
      // A helper the entry calls that is not here leaves the submission unjudged (the entry file's verdict).
      if (d.severity == Severity::Error && d.rule != "entry-helper-missing") member_rejected = true;
    }
    folded.suppressed += f.suppressed;
    for (const std::string& k : f.kernels) folded.kernels.push_back(k);
  }

  if (entries.size() == 1) {
    const FileResult& entry = *entries.front();
    folded.format = entry.format;
    folded.harness = entry.harness;
    folded.contract = entry.contract;
    folded.metrics = entry.metrics;
    folded.entry_found = true;
    folded.verdict = entry.verdict;
  } else {
    std::string names;
    for (const FileResult* e : entries)
      names += (names.empty() ? "" : ", ") + std::filesystem::path(e->path).filename().string();
    folded.findings.push_back(pipeline_finding(
        "entry-not-found",
        entries.empty() ? "no file of the submission holds a harness entry: the submission is unjudged"
                        : std::to_string(entries.size()) + " files hold a harness entry (" + names +
                              "): name the one the harness runs (check that file, or give the others to "
                              "exclude in .kgate.yaml)",
        dir));
    folded.verdict = "unjudged";
  }
  if (member_rejected) folded.verdict = "reject";
  folded.rejected = std::any_of(folded.findings.begin(), folded.findings.end(),
                                [](const Diagnostic& d) { return d.severity == Severity::Error; });
  folded.metrics["files"] = members;
  std::sort(folded.kernels.begin(), folded.kernels.end());
  folded.kernels.erase(std::unique(folded.kernels.begin(), folded.kernels.end()), folded.kernels.end());
  return folded;
}

}  // namespace kgate
