// The one diagnostic record that every stage produces and every emitter formats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kgate {

enum class Severity { Note = 0, Warning = 1, Error = 2 };

std::string_view to_string(Severity severity);
std::optional<Severity> parse_severity(std::string_view text);

// 1-based line and column; columns count bytes, as gcc and SARIF do.
struct Span {
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t end_line = 0;
  uint32_t end_col = 0;
  bool valid() const { return line != 0; }
};

struct RelatedLocation {
  std::string path;
  Span span;
  std::string message;
};

struct Diagnostic {
  std::string rule;
  Severity severity = Severity::Error;
  std::string message;
  std::string path;
  Span span;
  std::vector<RelatedLocation> related;
  // Stable across runs and unrelated edits: hash of rule, path and the trimmed text of the line.
  std::string fingerprint;
  // Which engine saw it: "tree-sitter-python", "clang", "tree-sitter-cuda", "ingest".
  std::string engine;
};

}  // namespace kgate
