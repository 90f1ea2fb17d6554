// kgate audit: the static gate over many files, one JSONL record per file appended as it finishes,
// resumable after a kill. Later stages (the runtime stage, where a GPU is present) extend each record.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"
#include "analyzers/pipeline/batch.h"

namespace kgate::audit {

// A stage after the static one: it sees the file's static result and adds its own fields to the
// record (the runtime stage adds "runtime": {"speedup", "roofline", ...}). Runs on the worker threads.
using RecordStage = std::function<void(const BatchItem& item, const FileResult& result, nlohmann::json& record)>;

struct AuditOptions {
  std::filesystem::path out_dir;    // holds results.jsonl (and report.html, written by the caller)
  unsigned jobs = 0;                // worker threads (0: one per core)
  std::vector<RecordStage> stages;  // run in order after the static stage
  bool progress = false;            // draw the progress bar on stderr
  // What the records depend on besides each file's content (policy, engine, limits, a hash of the
  // rules, the kgate version). Kept in OUT/audit-settings.json: resuming a log made under other
  // settings is an error, so that old verdicts are never mixed with new ones.
  nlohmann::json settings = nlohmann::json::object();
};

struct AuditOutcome {
  std::vector<nlohmann::json> records;  // the final log, one per file of this audit, in log order
  size_t analysed = 0;                  // files analysed by this run
  size_t reused = 0;                    // files skipped: a record with the same path and sha256 was in the log
  size_t torn_dropped = 0;              // 1 when a torn last line (a kill mid-write) was dropped
  size_t stale_dropped = 0;             // records of files that changed or are no longer in the audit
};

// Fields that differ between two runs over the same files (timing): tests drop them to compare logs.
inline constexpr const char* kVolatileFields[] = {"elapsed_ms"};

// The names of the log and of the settings it was made with, under the output directory.
inline constexpr const char* kLogName = "results.jsonl";
inline constexpr const char* kSettingsName = "audit-settings.json";

// Audits `items` (already sharded and filtered), appending to OUT/results.jsonl. Files whose path
// and content hash match a record already there are skipped. Ends with the log holding exactly one
// record per item. Errors: another audit holds OUT, the log is unreadable or not an audit log, it
// was made under other settings, or a write failed.
Result<AuditOutcome> run_audit(const std::vector<BatchItem>& items, const AuditOptions& options);

// One record: the JSON report's file object (report.h), plus "sha256", "suppressed", "elapsed_ms"
// and, for each finding, "excerpt": {"first_line", "lines"} from `text` (empty: no excerpts).
nlohmann::json make_record(const FileResult& result, const std::string& sha256, const std::string& text,
                           double elapsed_ms);

}  // namespace kgate::audit
