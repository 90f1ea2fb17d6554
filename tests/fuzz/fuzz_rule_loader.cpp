// Fuzz target: one YAML rule document through parse_rule (YAML -> JSON -> schema -> Rule).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "analyzers/core/json_schema.h"
#include "analyzers/rules/rule_set.h"

namespace {

const kgate::JsonSchema& rule_schema() {
  static const kgate::JsonSchema schema = [] {
    auto loaded = kgate::JsonSchema::load(std::string(KGATE_SOURCE_DIR) + "/rules/schema.json");
    if (!loaded) std::abort();  // the harness itself is broken, not the input
    return std::move(*loaded);
  }();
  return schema;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)kgate::parse_rule(text, "fuzz.yaml", rule_schema());
  return 0;
}
