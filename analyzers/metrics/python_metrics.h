// Maintainability metrics of Python/Triton code, from the tree the Python extractor already parsed.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analyzers/core/facts.h"

namespace kgate::metrics {

// Measures every `def` of the host module (facts.functions, matched by their name's position) and
// the host file as a whole (facts.modules[0].metrics), by the counting rules of docs/metrics.md.
void measure_python(TSNode root, std::string_view text, FactSet& facts);

}  // namespace kgate::metrics
