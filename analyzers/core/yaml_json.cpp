// YAML to typed JSON: the bridge between yaml-cpp and valijson/nlohmann.
#include "analyzers/core/yaml_json.h"

#include <fstream>
#include <iterator>
#include <regex>

#include <yaml-cpp/yaml.h>

namespace kgate {

namespace {

std::string where(std::string_view source, const YAML::Mark& mark) {
  std::string s(source);
  if (mark.line >= 0) s += ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
  return s;
}

// YAML 1.2 core schema resolution of a plain scalar. yaml-cpp's own as<bool> also takes yes/no/on/off
// (YAML 1.1), which would silently turn a rule id like `no` into false.
nlohmann::json typed_plain_scalar(const std::string& value) {
  static const std::regex kNull("^(~|null|Null|NULL|)$");
  static const std::regex kTrue("^(true|True|TRUE)$");
  static const std::regex kFalse("^(false|False|FALSE)$");
  static const std::regex kInt("^[-+]?[0-9]+$");
  static const std::regex kHex("^0x[0-9a-fA-F]+$");
  static const std::regex kFloat("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  if (std::regex_match(value, kNull)) return nullptr;
  if (std::regex_match(value, kTrue)) return true;
  if (std::regex_match(value, kFalse)) return false;
  try {
    if (std::regex_match(value, kInt)) return std::stoll(value);
    if (std::regex_match(value, kHex)) return std::stoll(value, nullptr, 16);
    if (std::regex_match(value, kFloat)) return std::stod(value);
  } catch (const std::out_of_range&) {
    // Too large for int64/double: keep the text, the schema will say what was expected.
  }
  return value;
}

Result<nlohmann::json> convert(const YAML::Node& node, std::string_view source) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return nlohmann::json(nullptr);
    case YAML::NodeType::Scalar: {
      const std::string& tag = node.Tag();
      if (tag == "!" || tag == "tag:yaml.org,2002:str") return nlohmann::json(node.Scalar());
      return typed_plain_scalar(node.Scalar());
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const auto& item : node) {
        auto value = convert(item, source);
        if (!value) return value;
        array.push_back(std::move(*value));
      }
      return array;
    }
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& entry : node) {
        if (!entry.first.IsScalar())
          return Error{where(source, entry.first.Mark()) + ": mapping keys must be plain strings"};
        const std::string key = entry.first.Scalar();
        if (object.contains(key)) return Error{where(source, entry.first.Mark()) + ": duplicate key '" + key + "'"};
        auto value = convert(entry.second, source);
        if (!value) return value;
        object[key] = std::move(*value);
      }
      return object;
    }
  }
  return nlohmann::json(nullptr);
}

}  // namespace

Result<nlohmann::json> parse_yaml_as_json(std::string_view text, std::string_view source) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return convert(root, source);
  } catch (const YAML::Exception& e) {
    return Error{where(source, e.mark) + ": invalid YAML: " + e.msg};
  } catch (const std::exception& e) {
    return Error{std::string(source) + ": cannot read YAML: " + e.what()};
  }
}

Result<nlohmann::json> load_yaml_as_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open file"};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{path + ": read error"};
  return parse_yaml_as_json(text, path);
}

}  // namespace kgate
