// Line tables, embedded-string source maps, and host spans.
#include "analyzers/core/source.h"

#include <algorithm>

namespace kgate {

LineIndex::LineIndex(std::string_view text) : size_(static_cast<uint32_t>(text.size())) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < size_; ++i)
    if (text[i] == '\n') line_starts_.push_back(i + 1);
}

Position LineIndex::position(uint32_t byte_offset) const {
  if (line_starts_.empty()) return {1, byte_offset + 1};
  byte_offset = std::min(byte_offset, size_);
  // The last line start at or before the offset.
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte_offset);
  const auto line = static_cast<uint32_t>(it - line_starts_.begin());
  return {line, byte_offset - line_starts_[line - 1] + 1};
}

std::pair<uint32_t, uint32_t> LineIndex::line_range(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {size_, size_};
  const uint32_t begin = line_starts_[line - 1];
  // The next line's start is one past this line's '\n'; the last line runs to the end of the text.
  uint32_t end = line < line_starts_.size() ? line_starts_[line] - 1 : size_;
  return {begin, std::max(begin, end)};
}

void SourceMap::append_run(uint32_t host_offset, uint32_t count) {
  host_offsets_.reserve(host_offsets_.size() + count);
  for (uint32_t i = 0; i < count; ++i) host_offsets_.push_back(host_offset + i);
}

uint32_t SourceMap::host_offset(uint32_t decoded_offset) const {
  if (host_offsets_.empty()) return decoded_offset;
  if (decoded_offset < host_offsets_.size()) return host_offsets_[decoded_offset];
  return host_offsets_.back() + 1;
}

Span SourceFile::span(uint32_t begin_byte, uint32_t end_byte) const {
  const Position begin = lines.position(begin_byte);
  const Position end = lines.position(std::max(begin_byte, end_byte));
  return {begin.line, begin.col, end.line, end.col};
}

std::string_view SourceFile::line_text(uint32_t line) const {
  auto [begin, end] = lines.line_range(line);
  std::string_view view(text);
  if (begin >= view.size()) return {};
  std::string_view result = view.substr(begin, end - begin);
  // CRLF files: the '\r' belongs to the line ending, not to the line.
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

}  // namespace kgate
