// valijson behind a small value type; its failures become Error values, not aborts or exceptions.
// Without this define valijson calls abort() on a malformed schema.
#define VALIJSON_USE_EXCEPTIONS 1

#include "analyzers/core/json_schema.h"

#include <fstream>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

namespace kgate {

namespace {

// valijson's context is {"<root>", "[match]", "[where]", "[0]"}; users read "match.where[0]".
std::string format_context(const std::vector<std::string>& context) {
  std::string out;
  for (const auto& part : context) {
    if (part == "<root>") continue;
    std::string name = part;
    if (name.size() >= 2 && name.front() == '[' && name.back() == ']') name = name.substr(1, name.size() - 2);
    const bool index = !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
    if (index)
      out += "[" + name + "]";
    else
      out += (out.empty() ? "" : ".") + name;
  }
  return out.empty() ? "(top level)" : out;
}

// valijson matches `pattern` keywords with std::regex, whose libstdc++ executor recurses once per
// character: a 30 KB string overflowed the stack (found by fuzz_rule_loader). No document we
// validate needs strings anywhere near this long (the longest shipped one is 634 bytes).
constexpr size_t kMaxValidatedStringBytes = 4096;

// The first string (key or value) longer than the limit, as "where: message"; empty if none.
std::string first_overlong_string(const nlohmann::json& value, const std::string& where) {
  const auto too_long = [&](size_t size, const std::string& at) {
    return (at.empty() ? std::string("<root>") : at) + ": a string of " + std::to_string(size) +
           " bytes is longer than the " + std::to_string(kMaxValidatedStringBytes) + " a validated document may hold";
  };
  if (value.is_string()) {
    const size_t size = value.get_ref<const std::string&>().size();
    return size > kMaxValidatedStringBytes ? too_long(size, where) : std::string();
  }
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      const std::string name = key.size() <= 64 ? key : std::string("<long key>");  // no cut UTF-8
      const std::string at = where.empty() ? name : where + "." + name;
      if (key.size() > kMaxValidatedStringBytes) return too_long(key.size(), at);
      if (std::string found = first_overlong_string(item, at); !found.empty()) return found;
    }
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i)
      if (std::string found = first_overlong_string(value[i], where + "[" + std::to_string(i) + "]"); !found.empty())
        return found;
  }
  return {};
}

}  // namespace

Result<JsonSchema> JsonSchema::from_json(const nlohmann::json& schema_document, const std::string& source) {
  try {
    auto schema = std::make_shared<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(schema_document);
    parser.populateSchema(adapter, *schema);
    JsonSchema result;
    result.schema_ = std::move(schema);
    return result;
  } catch (const std::exception& e) {
    return Error{source + ": invalid JSON Schema: " + e.what()};
  }
}

Result<JsonSchema> JsonSchema::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{path + ": cannot open schema"};
  nlohmann::json document = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return Error{path + ": schema is not valid JSON"};
  return from_json(document, path);
}

std::vector<std::string> JsonSchema::validate(const nlohmann::json& document) const {
  std::vector<std::string> problems;
  if (!schema_) return {"no schema loaded"};
  if (std::string overlong = first_overlong_string(document, ""); !overlong.empty()) return {overlong};
  try {
    // One validator per thread, reused: it caches the std::regex of each `pattern` keyword, and
    // compiling those once per document was most of rule loading's time.
    thread_local valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(document);
    if (validator.validate(*schema_, target, &results)) return problems;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) problems.push_back(format_context(error.context) + ": " + error.description);
    if (problems.empty()) problems.push_back("document does not match the schema");
  } catch (const std::exception& e) {
    problems.push_back(std::string("schema validation failed: ") + e.what());
  }
  return problems;
}

}  // namespace kgate
