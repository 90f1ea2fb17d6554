// The explicit registry of C++ checks: what facts alone cannot say (the way cppcheck lists checks).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"

namespace kgate {

struct Rule;
struct Policy;

// A check returns findings with rule, message and span set; the engine fills in severity, path and
// engine name, so checks cannot disagree with the rule file or the overrides.
using CheckFunction = std::vector<Diagnostic> (*)(const FactSet& facts, const Rule& rule, const Policy& policy);

struct CheckEntry {
  std::string_view name;
  CheckFunction run;  // nullptr: the pipeline produces these findings (ingest, suppressions)
  std::string_view description;
};

std::span<const CheckEntry> check_registry();
const CheckEntry* find_check(std::string_view name);

}  // namespace kgate
