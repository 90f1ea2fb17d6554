// The JSONL log on POSIX file descriptors: O_APPEND writes, ftruncate for a torn tail, fsync, rename.
#include "analyzers/audit/results_log.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kgate::audit {

namespace {

std::string errno_text() { return std::strerror(errno); }

bool is_record(const nlohmann::json& value) {
  return value.is_object() && value.contains("path") && value["path"].is_string();
}

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{"cannot write " + path + ": " + errno_text()};
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::ok();
}

}  // namespace

std::string to_log_line(const nlohmann::json& record) {
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<LogContents> read_log(const std::filesystem::path& path) {
  LogContents contents;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return contents;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read " + path.string()};
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();

  size_t start = 0;
  size_t line_number = 0;
  while (start < text.size()) {
    ++line_number;
    const size_t newline = text.find('\n', start);
    const bool complete = newline != std::string::npos;
    const std::string_view line(text.data() + start, (complete ? newline : text.size()) - start);
    nlohmann::json value = nlohmann::json::parse(line, nullptr, false);
    const bool good = complete && !value.is_discarded() && is_record(value);
    const bool last = !complete || newline + 1 == text.size();
    if (!good) {
      if (!last)
        return Error{path.string() + ":" + std::to_string(line_number) +
                     ": not an audit record (the log was edited or is not kgate's); remove the file to start over"};
      contents.torn_bytes = text.size() - start;
      break;
    }
    contents.records.push_back(std::move(value));
    start = newline + 1;
    contents.good_bytes = start;
  }
  return contents;
}

Result<std::unique_ptr<LogWriter>> LogWriter::open(const std::filesystem::path& path, uint64_t keep_bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Error{"cannot open " + path.string() + ": " + errno_text()};
  struct stat info{};
  if (::fstat(fd, &info) == 0 && static_cast<uint64_t>(info.st_size) > keep_bytes &&
      ::ftruncate(fd, static_cast<off_t>(keep_bytes)) != 0) {
    const std::string message = "cannot drop the torn last line of " + path.string() + ": " + errno_text();
    ::close(fd);
    return Error{message};
  }
  return std::unique_ptr<LogWriter>(new LogWriter(fd, path.string()));
}

LogWriter::~LogWriter() {
  if (fd_ < 0) return;
  ::fsync(fd_);
  ::close(fd_);
}

Status LogWriter::append(const nlohmann::json& record) {
  if (Status written = write_all(fd_, to_log_line(record), path_); !written) return written;
  ++unsynced_;
  if (unsynced_ >= sync_every || std::chrono::steady_clock::now() - last_sync_ >= sync_interval) return sync();
  return Status::ok();
}

Status LogWriter::sync() {
  unsynced_ = 0;
  last_sync_ = std::chrono::steady_clock::now();
  if (::fsync(fd_) != 0) return Error{"cannot fsync " + path_ + ": " + errno_text()};
  return Status::ok();
}

Result<std::unique_ptr<OutputLock>> OutputLock::acquire(const std::filesystem::path& out_dir) {
  const std::filesystem::path path = out_dir / ".kgate-audit.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Error{"cannot open " + path.string() + ": " + errno_text()};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const bool busy = errno == EWOULDBLOCK;
    const std::string message = busy ? "another kgate audit is writing " + out_dir.string()
                                     : "cannot lock " + path.string() + ": " + errno_text();
    ::close(fd);
    return Error{message};
  }
  return std::unique_ptr<OutputLock>(new OutputLock(fd));
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

Status write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path temporary = path.string() + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error{"cannot create " + temporary.string() + ": " + errno_text()};
  Status written = write_all(fd, text, temporary.string());
  if (written && ::fsync(fd) != 0) written = Error{"cannot fsync " + temporary.string() + ": " + errno_text()};
  ::close(fd);
  if (!written) return written;
  if (::rename(temporary.c_str(), path.c_str()) != 0)
    return Error{"cannot rename " + temporary.string() + " to " + path.string() + ": " + errno_text()};
  return Status::ok();
}

Status rewrite_log(const std::filesystem::path& path, const std::vector<nlohmann::json>& records) {
  std::string text;
  for (const auto& record : records) text += to_log_line(record);
  return write_file_atomically(path, text);
}

}  // namespace kgate::audit
