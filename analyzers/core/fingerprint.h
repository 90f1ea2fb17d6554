// Stable finding fingerprints: the key SARIF consumers and baselines use to follow a finding.
#pragma once

#include <string>
#include <string_view>

namespace kgate {

// Hex digest of rule id, path and the line's text with surrounding whitespace trimmed, so that a
// finding keeps its fingerprint when unrelated lines are added above it or the line is re-indented.
std::string fingerprint(std::string_view rule, std::string_view path, std::string_view line_text);

}  // namespace kgate
