// Ingest: reads a file, rejects what cannot be analysed (input-* diagnostics), and names its format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"

namespace kgate::ingest {

struct Limits {
  uint64_t max_file_bytes = 4u << 20;     // input-too-large above this
  uint32_t max_nesting = 400;             // input-too-deep above this syntax-tree depth
  uint32_t max_embedded_sources = 64;     // input-too-many-sources above this
  uint32_t max_file_ms = 10'000;          // input-too-slow when one file's analysis takes longer (0: none)
  uint64_t max_file_memory = 1ull << 30;  // input-too-much-memory above this many accounted bytes (0: none)
};

enum class FileKind { Python, Cuda, Unknown };

// By extension: .py -> Python; .cu .cuh .cpp .cc .cxx .h .hpp -> Cuda; else Unknown.
FileKind kind_from_path(const std::string& path);

// Reads and checks a file: unreadable, empty, binary (NUL bytes), invalid UTF-8, too large.
// On failure `diagnostics` holds one input-* finding and the result is nullopt.
std::optional<SourceFile> read_source(const std::string& path, std::string text_or_empty_to_read, const Limits& limits,
                                      std::vector<Diagnostic>& diagnostics, bool text_given = false);

}  // namespace kgate::ingest
