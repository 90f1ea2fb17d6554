// Halstead's derived measures and the three maintainability-index forms, from counted metrics.
#pragma once

#include "analyzers/core/facts.h"

namespace kgate::metrics {

// Fills halstead_volume/difficulty/effort from the four counts and the mi_* fields from volume,
// cyclomatic and lloc; `comment_percent` (0-100) feeds the comment term. Sets `measured`.
void finish(CodeMetrics& metrics, double comment_percent);

}  // namespace kgate::metrics
