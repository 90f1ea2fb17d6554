// Suppression comments (`# kgate: ignore[rule] reason`, `ignore-next-line`) and the findings about them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/source.h"

namespace kgate {

inline constexpr std::string_view kSuppressionMissingReason = "suppression-missing-reason";
inline constexpr std::string_view kSuppressionUnknownRule = "suppression-unknown-rule";
inline constexpr std::string_view kSuppressionUnused = "suppression-unused";

struct Suppression {
  uint32_t target_line = 0;        // the line whose findings it removes
  std::vector<std::string> rules;  // ids as written; empty when the marker has no [ids]
  std::string reason;              // trimmed; empty when missing
  bool next_line = false;          // ignore-next-line
  bool has_rule_list = false;      // false for a bare `kgate: ignore`
  Span span;                       // the marker comment, for findings about it
};

// Markers after `#` (Python) or `//` (C++, inside embedded sources too: their findings are already
// mapped to host lines, so scanning the host file's lines covers both).
std::vector<Suppression> parse_suppressions(const SourceFile& file);

struct SuppressionResult {
  size_t suppressed = 0;         // findings removed
  std::vector<Diagnostic> meta;  // suppression-* findings; these are never suppressed themselves
};

// Removes each finding whose first line is a suppression's target line and whose rule it names.
// `known_rule`: whether an id names a rule (else suppression-unknown-rule). `rule_ran`: whether the
// rule was enabled in this run; a suppression is reported unused only for rules that ran, so
// disabling a rule or running one fixture does not make every other suppression noisy.
SuppressionResult apply_suppressions(const SourceFile& file, std::vector<Diagnostic>& findings,
                                     const std::function<bool(std::string_view)>& known_rule,
                                     const std::function<bool(std::string_view)>& rule_ran);

}  // namespace kgate
