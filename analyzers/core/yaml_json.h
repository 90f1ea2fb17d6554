// YAML documents as typed JSON values, so one JSON Schema validator serves rule, policy and config files.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate {

// Parses one YAML document. Plain scalars are typed by the YAML 1.2 core schema (true/false, null,
// integers, floats); quoted scalars stay strings, so `severity: "no"` is never a bool. Duplicate
// mapping keys and non-scalar keys are errors. `source` names the text in messages ("rules/x.yaml").
Result<nlohmann::json> parse_yaml_as_json(std::string_view text, std::string_view source);
Result<nlohmann::json> load_yaml_as_json(const std::string& path);

}  // namespace kgate
