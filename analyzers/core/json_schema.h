// JSON Schema (draft 7) validation of rule and policy files, through valijson.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace valijson {
class Schema;
}

namespace kgate {

class JsonSchema {
 public:
  static Result<JsonSchema> load(const std::string& path);
  static Result<JsonSchema> from_json(const nlohmann::json& schema_document, const std::string& source);

  // Every violation, one line each: "match.where: ..." (empty when the document is valid).
  std::vector<std::string> validate(const nlohmann::json& document) const;

 private:
  std::shared_ptr<const valijson::Schema> schema_;
};

}  // namespace kgate
