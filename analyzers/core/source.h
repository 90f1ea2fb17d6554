// Source text, line tables and the map from an embedded string back to its host file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/diagnostic.h"

namespace kgate {

struct Position {
  uint32_t line = 1;  // 1-based
  uint32_t col = 1;   // 1-based, bytes
};

// Maps byte offsets of one text to line and column.
class LineIndex {
 public:
  LineIndex() = default;
  explicit LineIndex(std::string_view text);
  Position position(uint32_t byte_offset) const;
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // Byte range [begin, end) of a 1-based line, without its newline.
  std::pair<uint32_t, uint32_t> line_range(uint32_t line) const;

 private:
  std::vector<uint32_t> line_starts_;
  uint32_t size_ = 0;
};

// For a text decoded out of a host file (a Python string literal, a concatenation of them),
// the host byte offset of every byte of the decoded text. Escapes such as "\n" make one decoded
// byte stand for several host bytes; the map records where each decoded byte began.
class SourceMap {
 public:
  void append(uint32_t host_offset) { host_offsets_.push_back(host_offset); }
  // Appends `count` decoded bytes that map one-to-one onto host bytes starting at host_offset.
  void append_run(uint32_t host_offset, uint32_t count);
  void append_map(const SourceMap& other) {
    host_offsets_.insert(host_offsets_.end(), other.host_offsets_.begin(), other.host_offsets_.end());
  }
  size_t size() const { return host_offsets_.size(); }
  bool empty() const { return host_offsets_.empty(); }
  // Host byte offset of a decoded byte; offsets past the end map to one past the last byte.
  uint32_t host_offset(uint32_t decoded_offset) const;

 private:
  std::vector<uint32_t> host_offsets_;
};

struct SourceFile {
  std::string path;
  std::string text;
  LineIndex lines;

  SourceFile() = default;
  SourceFile(std::string p, std::string t) : path(std::move(p)), text(std::move(t)), lines(text) {}
  Span span(uint32_t begin_byte, uint32_t end_byte) const;
  std::string_view line_text(uint32_t line) const;
};

}  // namespace kgate
