// Ingest: reading a submission and refusing, with one input-* diagnostic, what cannot be analysed.
#include "analyzers/ingest/ingest.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <cstdio>
#include <system_error>

#include "analyzers/core/file_text.h"

namespace kgate::ingest {

namespace {

constexpr std::string_view kEngine = "ingest";
// Binary sniffing looks at the head only, like git and file(1): a text file does not turn binary
// after 8 KiB, and reading further would make large inputs slow to reject.
constexpr size_t kSniffBytes = 8 * 1024;
constexpr double kMaxControlFraction = 0.30;

Diagnostic make(std::string rule, Severity severity, std::string message, const std::string& path,
                Span span = {1, 1, 1, 1}) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.severity = severity;
  d.message = std::move(message);
  d.path = path;
  d.span = span;
  d.engine = std::string(kEngine);
  return d;
}

bool is_control(unsigned char c) {
  if (c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') return false;
  return c < 0x20 || c == 0x7f;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

FileKind kind_from_path(const std::string& path) {
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".py") return FileKind::Python;
  static constexpr std::array<std::string_view, 7> kCuda = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp"};
  if (std::find(kCuda.begin(), kCuda.end(), ext) != kCuda.end()) return FileKind::Cuda;
  return FileKind::Unknown;
}

std::optional<SourceFile> read_source(const std::string& path, std::string text_or_empty_to_read, const Limits& limits,
                                      std::vector<Diagnostic>& diagnostics, bool text_given) {
  std::string text = std::move(text_or_empty_to_read);
  if (!text_given) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
      diagnostics.push_back(make("input-unreadable", Severity::Error,
                                 "cannot read file: " + (ec ? ec.message() : std::string("no such file")), path));
      return std::nullopt;
    }
    if (std::filesystem::is_directory(status) || !std::filesystem::is_regular_file(status)) {
      diagnostics.push_back(make("input-unreadable", Severity::Error, "cannot read file: not a regular file", path));
      return std::nullopt;
    }
    // Checked before reading, so a huge file is refused without loading it.
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > limits.max_file_bytes) {
      diagnostics.push_back(make("input-too-large", Severity::Error,
                                 "file is " + std::to_string(size) + " bytes, above the limit of " +
                                     std::to_string(limits.max_file_bytes) + " bytes (--max-file-bytes)",
                                 path));
      return std::nullopt;
    }
    ReadFailure failure = ReadFailure::Open;
    std::optional<std::string> read = read_file_text(path, &failure);
    if (!read) {
      diagnostics.push_back(make("input-unreadable", Severity::Error,
                                 failure == ReadFailure::Open ? "cannot read file: permission denied or open failed"
                                                              : "cannot read file: read error",
                                 path));
      return std::nullopt;
    }
    text = std::move(*read);
  }

  // Text given in memory is checked again: the file may have grown between stat and read.
  if (text.size() > limits.max_file_bytes) {
    diagnostics.push_back(make("input-too-large", Severity::Error,
                               "file is " + std::to_string(text.size()) + " bytes, above the limit of " +
                                   std::to_string(limits.max_file_bytes) + " bytes (--max-file-bytes)",
                               path));
    return std::nullopt;
  }
  if (text.empty()) {
    diagnostics.push_back(make("input-empty", Severity::Warning, "file is empty: nothing to analyse", path));
    return std::nullopt;
  }

  const std::string_view head = std::string_view(text).substr(0, std::min(text.size(), kSniffBytes));
  const size_t nul = head.find('\0');
  const size_t control = static_cast<size_t>(
      std::count_if(head.begin(), head.end(), [](char c) { return is_control(static_cast<unsigned char>(c)); }));
  if (nul != std::string_view::npos ||
      static_cast<double>(control) > kMaxControlFraction * static_cast<double>(head.size())) {
    SourceFile located(path, text);
    const uint32_t at = nul != std::string_view::npos ? static_cast<uint32_t>(nul) : 0;
    std::string why = nul != std::string_view::npos ? "file is binary: NUL byte at offset " + std::to_string(nul)
                                                    : "file is binary: " + std::to_string(control) + " of the first " +
                                                          std::to_string(head.size()) + " bytes are control characters";
    diagnostics.push_back(make("input-binary", Severity::Error, std::move(why), path, located.span(at, at + 1)));
    return std::nullopt;
  }

  const size_t bad = find_invalid_utf8(text);
  if (bad != std::string_view::npos) {
    SourceFile located(path, text);
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[bad])));
    diagnostics.push_back(
        make("input-invalid-utf8", Severity::Error,
             "file is not valid UTF-8: byte " + std::string(byte) + " at offset " + std::to_string(bad), path,
             located.span(static_cast<uint32_t>(bad), static_cast<uint32_t>(bad) + 1)));
    return std::nullopt;
  }
  return SourceFile(path, std::move(text));
}

}  // namespace kgate::ingest
