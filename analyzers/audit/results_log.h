// OUT/results.jsonl: the append-only log of an audit, one JSON object per finished file. A restarted
// audit reads it back to skip what is done; a line torn by a kill is detected and dropped.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate::audit {

struct LogContents {
  std::vector<nlohmann::json> records;  // every complete line, in file order
  uint64_t good_bytes = 0;              // length of the prefix made of complete lines
  uint64_t torn_bytes = 0;              // a trailing partial line (a kill mid-write), not kept
};

// Reads a log; a missing file reads as empty. The last line is torn when it has no newline or does
// not parse as a JSON object with a string "path"; it is dropped. Such a line anywhere else means the
// file was not written by an audit (or was edited), and is an error naming the line.
Result<LogContents> read_log(const std::filesystem::path& path);

// Appends records. Each line goes to the kernel in one write(2) as soon as it is appended (a killed
// process loses nothing it appended); fsync runs every `sync_every` lines or `sync_interval`, and on
// close, so that a machine crash loses at most that much.
class LogWriter {
 public:
  // Opens `path` for appending after cutting it to `keep_bytes` (drops a torn tail).
  static Result<std::unique_ptr<LogWriter>> open(const std::filesystem::path& path, uint64_t keep_bytes);
  ~LogWriter();
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  Status append(const nlohmann::json& record);
  Status sync();

 private:
  LogWriter(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
  size_t unsynced_ = 0;
  std::chrono::steady_clock::time_point last_sync_ = std::chrono::steady_clock::now();
  static constexpr size_t sync_every = 64;
  static constexpr std::chrono::seconds sync_interval{1};
};

// An exclusive lock on an output directory (flock on OUT/.kgate-audit.lock), held while it lives:
// two audits writing one log would interleave their records.
class OutputLock {
 public:
  static Result<std::unique_ptr<OutputLock>> acquire(const std::filesystem::path& out_dir);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  explicit OutputLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// One log line: compact JSON, invalid UTF-8 replaced (a line must always parse back).
std::string to_log_line(const nlohmann::json& record);

// Replaces the file with `records` atomically (temporary file, fsync, rename): used to drop records
// of files that changed or left the audit, so the log ends as the same set an uninterrupted run writes.
Status rewrite_log(const std::filesystem::path& path, const std::vector<nlohmann::json>& records);

// Writes `text` to `path` atomically (temporary file, fsync, rename).
Status write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace kgate::audit
