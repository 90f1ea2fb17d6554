// Stable finding fingerprints: the key SARIF consumers and baselines use to follow a finding.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace kgate {

// The path as the reports name it: lexically normal with '/' separators ("./a//b" -> "a/b"), and an
// absolute path under `base_dir` made relative to it, so `corpus`, `./corpus/` and `$PWD/corpus`
// name a file alike. `base_dir` empty: the current directory.
std::string invocation_relative_path(std::string_view path, const std::filesystem::path& base_dir = {});

// Hex digest of rule id, invocation_relative_path(path) and the line's text with surrounding
// whitespace trimmed, so that a finding keeps its fingerprint when unrelated lines are added above it,
// the line is re-indented, or the same file is named another way.
std::string fingerprint(std::string_view rule, std::string_view path, std::string_view line_text);

}  // namespace kgate
