// The fact set as JSON, for `kgate facts` (debugging rules) and for tests.
#pragma once

#include <nlohmann/json.hpp>

#include "analyzers/core/facts.h"

namespace kgate {

nlohmann::json facts_to_json(const FactSet& facts);

}  // namespace kgate
