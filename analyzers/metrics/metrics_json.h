// The "maintainability" object of a file's JSON result: the file, its embedded modules, its functions.
#pragma once

#include <nlohmann/json.hpp>

#include "analyzers/core/facts.h"

namespace kgate::metrics {

// {"file": {metric...} or null, "modules": [{role, language, line, metric...}],
//  "functions": [{name, qualname, kind, language, line, col, metric...}]}; only what was measured.
nlohmann::json maintainability_json(const FactSet& facts);

}  // namespace kgate::metrics
