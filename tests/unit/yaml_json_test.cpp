// YAML to typed JSON: plain scalars resolve by the YAML 1.2 core schema (not yaml-cpp's YAML 1.1
// booleans), quoted scalars stay strings.
#include <gtest/gtest.h>

#include "analyzers/core/yaml_json.h"

namespace kgate {
namespace {

nlohmann::json value_of(const std::string& scalar) {
  auto doc = parse_yaml_as_json("v: " + scalar + "\n", "test.yaml");
  EXPECT_TRUE(doc.has_value()) << scalar;
  return doc ? doc->at("v") : nlohmann::json();
}

TEST(YamlJson, CoreSchemaNullAndBooleans) {
  for (const char* s : {"~", "null", "Null", "NULL"}) EXPECT_TRUE(value_of(s).is_null()) << s;
  EXPECT_TRUE(value_of("").is_null());
  for (const char* s : {"true", "True", "TRUE"}) EXPECT_EQ(value_of(s), true) << s;
  for (const char* s : {"false", "False", "FALSE"}) EXPECT_EQ(value_of(s), false) << s;
  // YAML 1.1 words are strings in the core schema.
  for (const char* s : {"yes", "no", "on", "off", "tRUE", "nul"}) EXPECT_EQ(value_of(s), s) << s;
}

TEST(YamlJson, CoreSchemaNumbers) {
  EXPECT_EQ(value_of("0"), 0);
  EXPECT_EQ(value_of("42"), 42);
  EXPECT_EQ(value_of("-7"), -7);
  EXPECT_EQ(value_of("+7"), 7);
  EXPECT_EQ(value_of("0x1F"), 31);
  EXPECT_TRUE(value_of("0x1F").is_number_integer());
  EXPECT_DOUBLE_EQ(value_of("1.5").get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(value_of(".5").get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(value_of("2.").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(value_of("1e3").get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ(value_of("-2.5E-1").get<double>(), -0.25);
  // Not numbers: kept as text.
  for (const char* s : {"1e", "1.2.3", "+", ".", "0x", "0xG1", "12a", "e5", "1_000", "v1"})
    EXPECT_EQ(value_of(s), s) << s;
  // Too large for int64: kept as text for the schema to reject.
  EXPECT_EQ(value_of("99999999999999999999999"), "99999999999999999999999");
}

TEST(YamlJson, QuotedScalarsStayStrings) {
  EXPECT_EQ(value_of("\"42\""), "42");
  EXPECT_EQ(value_of("'true'"), "true");
  EXPECT_EQ(value_of("\"null\""), "null");
}

// Found by fuzz_rule_loader (tests/fuzz/regressions/rule_loader/): bytes that are not UTF-8 reached
// valijson's UTF-8 length table (an out-of-bounds read) and nlohmann's dump (an exception).
TEST(YamlJson, InvalidUtf8ScalarsAndKeysAreErrors) {
  for (const std::string& text : {std::string("v: a\xff b\n"), std::string("v: \"\xc3\x28\"\n"),
                                  std::string("k\xff: 1\n"), std::string("v: [ok, \"\xed\xa0\x80\"]\n")}) {
    auto doc = parse_yaml_as_json(text, "bad.yaml");
    ASSERT_FALSE(doc.has_value());
    EXPECT_NE(doc.error().find("not valid UTF-8"), std::string::npos) << doc.error();
  }
  EXPECT_EQ(value_of("\"caf\xc3\xa9\""), "caf\xc3\xa9");
}

}  // namespace
}  // namespace kgate
