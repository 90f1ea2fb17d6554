// The audit run: match the log against the files, analyse what is missing on the thread pool, append
// each record as it finishes, and compact the log when records went stale.
#include "analyzers/audit/audit.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>

#include "analyzers/core/content_hash.h"
#include "analyzers/audit/progress.h"
#include "analyzers/audit/results_log.h"
#include "analyzers/report/report.h"

namespace kgate::audit {

namespace {

constexpr size_t kContextLines = 2;  // lines shown above and below a finding
constexpr size_t kMaxExcerptLines = 8;
constexpr size_t kMaxExcerptLineBytes = 240;

// Cuts at a UTF-8 character boundary at most `limit` bytes in.
std::string_view clip_utf8(std::string_view line, size_t limit) {
  if (line.size() <= limit) return line;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) --end;
  return line.substr(0, end);
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

nlohmann::json excerpt(const std::vector<std::string_view>& lines, size_t line, size_t end_line) {
  if (lines.empty() || line == 0 || line > lines.size()) return nullptr;
  const size_t first = line > kContextLines ? line - kContextLines : 1;
  size_t last = std::min(lines.size(), std::max(line, end_line) + kContextLines);
  last = std::min(last, first + kMaxExcerptLines - 1);
  nlohmann::json shown = nlohmann::json::array();
  for (size_t n = first; n <= last; ++n) shown.push_back(std::string(clip_utf8(lines[n - 1], kMaxExcerptLineBytes)));
  return {{"first_line", first}, {"lines", std::move(shown)}};
}

// The text the audit analyses: the whole file when it is within the size limit (one read serves
// the hash, the analysis and the excerpts); nullopt when it is too large or unreadable, so that
// analyze_file reports input-too-large / input-unreadable itself.
std::optional<std::string> read_within_limit(const std::string& path, uint64_t limit) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > limit) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return buffer.str();
}

}  // namespace

nlohmann::json make_record(const FileResult& result, const std::string& sha256, const std::string& text,
                           double elapsed_ms) {
  nlohmann::json record = file_to_json(result);
  record["sha256"] = sha256;
  record["suppressed"] = result.suppressed;
  record["elapsed_ms"] = elapsed_ms;
  // The helper modules the analysis followed, with their hashes: part of the resume key.
  if (!result.helpers_read.empty()) {
    nlohmann::json helpers = nlohmann::json::object();
    for (const auto& [helper, hash] : result.helpers_read) helpers[helper] = hash;
    record["helpers"] = std::move(helpers);
  }
  const bool binary = std::any_of(result.findings.begin(), result.findings.end(),
                                  [](const Diagnostic& d) { return d.rule == "input-binary"; });
  if (!binary && !text.empty() && !result.findings.empty()) {
    const std::vector<std::string_view> lines = split_lines(text);
    for (size_t i = 0; i < result.findings.size(); ++i) {
      const auto& span = result.findings[i].span;
      nlohmann::json shown = excerpt(lines, span.line, span.end_line);
      if (!shown.is_null()) record["findings"][i]["excerpt"] = std::move(shown);
    }
  }
  return record;
}

Result<AuditOutcome> run_audit(const std::vector<BatchItem>& items, const AuditOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec) return Error{"cannot create " + options.out_dir.string() + ": " + ec.message()};
  auto lock = OutputLock::acquire(options.out_dir);  // held until the audit returns
  if (!lock) return Error{lock.error()};
  const std::filesystem::path log_path = options.out_dir / kLogName;
  auto log = read_log(log_path);
  if (!log) return Error{log.error()};

  // A log made under other settings holds verdicts this run would not give: refuse to mix them.
  const std::filesystem::path settings_path = options.out_dir / kSettingsName;
  if (!log->records.empty() && std::filesystem::exists(settings_path, ec)) {
    std::ifstream in(settings_path);
    const nlohmann::json logged = nlohmann::json::parse(in, nullptr, false);
    if (logged != options.settings) {
      std::string differing;
      for (const auto& [key, value] : options.settings.items())
        if (!logged.is_object() || !logged.contains(key) || logged[key] != value)
          differing += (differing.empty() ? "" : ", ") + key;
      return Error{options.out_dir.string() + " holds an audit made with other settings (" +
                   (differing.empty() ? "unknown" : differing) +
                   "); audit into another --out, or delete it to start over"};
    }
  }
  if (Status written = write_file_atomically(settings_path, options.settings.dump(2) + "\n"); !written)
    return Error{written.message()};

  AuditOutcome outcome;
  outcome.torn_dropped = log->torn_bytes > 0 ? 1 : 0;

  // The current content hash of every file; "" where it cannot be read (analysis then says why).
  std::map<std::string, std::string> current;
  for (const auto& item : items) {
    auto hash = sha256_file(item.path);
    current[item.path] = hash ? *hash : std::string{};
  }

  // Keep a logged record when its file is still in the audit with the same content (and the same
  // helper modules), once per path.
  std::map<std::string, bool> done;
  std::map<std::string, std::string> helper_hashes;  // helper path -> its current hash
  for (auto& record : log->records) {
    const std::string path = record["path"].get<std::string>();
    const auto at = current.find(path);
    bool same = at != current.end() && record.contains("sha256") && record["sha256"] == at->second;
    // A record made while following helper modules stands only while every helper is unchanged.
    if (same && record.contains("helpers") && record["helpers"].is_object())
      for (const auto& [helper, hash] : record["helpers"].items()) {
        auto known = helper_hashes.find(helper);
        if (known == helper_hashes.end()) {
          auto now = sha256_file(helper);
          known = helper_hashes.emplace(helper, now ? *now : std::string{}).first;
        }
        if (!hash.is_string() || hash.get<std::string>() != known->second || known->second.empty()) same = false;
      }
    if (same && !done.contains(path)) {
      done[path] = true;
      outcome.records.push_back(std::move(record));
    } else {
      ++outcome.stale_dropped;
    }
  }
  outcome.reused = outcome.records.size();

  std::vector<BatchItem> todo;
  for (const auto& item : items)
    if (!done.contains(item.path)) {
      todo.push_back(item);
      done[item.path] = true;  // a path named twice is analysed once
    }

  if (outcome.stale_dropped > 0) {
    // Compact first: records of changed or departed files must not survive a kill of this run.
    if (Status rewritten = rewrite_log(log_path, outcome.records); !rewritten) return Error{rewritten.message()};
    log->good_bytes = 0;
    for (const auto& record : outcome.records) log->good_bytes += to_log_line(record).size();
  }
  auto writer = LogWriter::open(log_path, log->good_bytes);
  if (!writer) return Error{writer.error()};

  ProgressBar progress(std::cerr, todo.size(), options.progress);
  std::vector<nlohmann::json> slots(todo.size());  // each worker fills only its own item's slot
  Status write_status;
  const auto analyse = [&](size_t index, const BatchItem& item) {
    const auto start = std::chrono::steady_clock::now();
    std::optional<std::string> text = read_within_limit(item.path, item.context->limits.max_file_bytes);
    FileResult result = text ? analyze_source(item.path, *text, *item.context) : analyze_file(item.path, *item.context);
    const std::string sha256 = text ? sha256_hex(*text) : current.at(item.path);
    const double elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    nlohmann::json record = make_record(result, sha256, text ? *text : std::string{}, elapsed_ms);
    for (const auto& stage : options.stages) stage(item, result, record);
    slots[index] = std::move(record);
    return result;
  };
  analyze_batch_each(todo, options.jobs, analyse, [&](size_t index, FileResult&& result) {
    // A throwing analyse left its slot empty: the batch's failure result is logged instead.
    if (slots[index].is_null()) slots[index] = make_record(result, current.at(todo[index].path), {}, 0.0);
    if (write_status) write_status = (*writer)->append(slots[index]);
    outcome.records.push_back(std::move(slots[index]));
    ++outcome.analysed;
    progress.tick();
  });
  progress.finish();
  if (!write_status) return Error{write_status.message()};
  if (Status synced = (*writer)->sync(); !synced) return Error{synced.message()};
  return outcome;
}

}  // namespace kgate::audit
