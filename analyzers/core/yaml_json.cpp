// YAML to typed JSON: the bridge between yaml-cpp and valijson/nlohmann.
#include "analyzers/core/yaml_json.h"

#include <string_view>

#include <yaml-cpp/yaml.h>

#include "analyzers/core/file_text.h"

namespace kgate {

namespace {

std::string where(std::string_view source, const YAML::Mark& mark) {
  std::string s(source);
  if (mark.line >= 0) s += ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
  return s;
}

// YAML 1.2 core schema resolution of a plain scalar. yaml-cpp's own as<bool> also takes yes/no/on/off
// (YAML 1.1), which would silently turn a rule id like `no` into false. The forms are matched by hand
// rather than with std::regex: matching every scalar of every rule file through std::regex was a
// large share of start-up.
bool all_of(std::string_view s, bool (*pred)(char)) {
  if (s.empty()) return false;
  for (char c : s)
    if (!pred(c)) return false;
  return true;
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// [-+]?[0-9]+
bool is_int(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  return all_of(s, is_digit);
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_float(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    return i - from;
  };
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

nlohmann::json typed_plain_scalar(const std::string& value) {
  if (value.empty() || value == "~" || value == "null" || value == "Null" || value == "NULL") return nullptr;
  if (value == "true" || value == "True" || value == "TRUE") return true;
  if (value == "false" || value == "False" || value == "FALSE") return false;
  try {
    if (is_int(value)) return std::stoll(value);
    if (value.size() > 2 && value[0] == '0' && value[1] == 'x' && all_of(std::string_view(value).substr(2), is_hex))
      return std::stoll(value, nullptr, 16);
    if (is_float(value)) return std::stod(value);
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
      // JSON strings must be UTF-8: valijson reads past its tables and nlohmann throws on anything else
      // (stray bytes, overlong forms, encoded surrogates), so such a scalar is an error here.
      if (find_invalid_utf8(node.Scalar()) != std::string_view::npos)
        return Error{where(source, node.Mark()) + ": scalar is not valid UTF-8"};
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
        if (find_invalid_utf8(key) != std::string_view::npos)
          return Error{where(source, entry.first.Mark()) + ": mapping key is not valid UTF-8"};
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
  std::optional<std::string> text = read_file_text(path);
  if (!text) return Error{path + ": cannot open or read file"};
  return parse_yaml_as_json(*text, path);
}

}  // namespace kgate
