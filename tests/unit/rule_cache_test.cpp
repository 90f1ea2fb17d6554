// The rule cache: a second load of an unchanged rules directory comes from the cache, and any
// change to a rule file, or a damaged entry, makes the load parse and validate again.
#include <gtest/gtest.h>

#include <fstream>

#include "analyzers/core/yaml_json.h"
#include "analyzers/rules/rule_cache.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

using kgate::testing::ScratchDir;

const char* kRule = R"(id: sample-rule
severity: error
techniques: [F1]
summary: "the summary in the file"
message: "a call to {resolved}"
rationale: r
match:
  fact: call
  where:
    resolved: ["torch.*"]
)";

class RuleCache : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::copy_file(testing::source_rules_dir() / "schema.json", rules.path() / "schema.json");
    rules.write("scope/sample-rule.yaml", kRule);
  }
  // The key load_rules builds for the directory as it is now.
  RuleCacheKey key_now() const {
    RuleCacheKey key;
    std::ifstream schema(rules.path() / "schema.json");
    key.schema_text.assign(std::istreambuf_iterator<char>(schema), std::istreambuf_iterator<char>());
    const auto file = rules.path() / "scope" / "sample-rule.yaml";
    std::ifstream in(file);
    key.files.emplace_back(file.string(),
                           std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
    return key;
  }
  size_t entries() const {
    size_t n = 0;
    if (std::filesystem::exists(cache.path()))
      for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(cache.path())) ++n;
    return n;
  }
  ScratchDir rules;
  ScratchDir cache;
};

TEST_F(RuleCache, ACleanLoadIsStoredAndReloadedIdentically) {
  const RuleLoad first = load_rules(rules.path(), cache.path());
  ASSERT_TRUE(first.problems.empty()) << first.problems.front().message;
  EXPECT_EQ(entries(), 1u);
  const RuleLoad second = load_rules(rules.path(), cache.path());
  ASSERT_TRUE(second.problems.empty());
  ASSERT_EQ(second.rules.size(), 1u);
  const Rule& a = first.rules.rules()[0];
  const Rule& b = second.rules.rules()[0];
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.summary, b.summary);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(a.file, b.file);
  ASSERT_EQ(b.match.size(), 1u);
  ASSERT_EQ(b.match[0].where.size(), 1u);
  EXPECT_EQ(b.match[0].where[0].field, "resolved");
  ASSERT_TRUE(b.match[0].where[0].globs);  // compiled again on the cached path
}

TEST_F(RuleCache, AnEntryWithTheSameKeyIsUsedAndAnEditMissesIt) {
  // An entry whose document differs from the file proves the load took the cache, not the YAML.
  auto doc = parse_yaml_as_json(kRule, "x");
  ASSERT_TRUE(doc);
  (*doc)["summary"] = "the summary in the cache";
  store_rule_cache(cache.path(), rules.path(), key_now(), {*doc});
  EXPECT_EQ(load_rules(rules.path(), cache.path()).rules.rules().at(0).summary, "the summary in the cache");
  // Without a cache directory (kgate rules --validate) the file is always read.
  EXPECT_EQ(load_rules(rules.path()).rules.rules().at(0).summary, "the summary in the file");
  // One changed byte in a rule file: the key differs, the file is parsed again.
  rules.write("scope/sample-rule.yaml", std::string(kRule) + "\n");
  EXPECT_EQ(load_rules(rules.path(), cache.path()).rules.rules().at(0).summary, "the summary in the file");
}

TEST_F(RuleCache, ADamagedEntryFallsBackToParsing) {
  ASSERT_TRUE(load_rules(rules.path(), cache.path()).problems.empty());
  for (const auto& e : std::filesystem::directory_iterator(cache.path())) {
    std::ofstream out(e.path(), std::ios::binary | std::ios::trunc);
    out << "not cbor at all";
  }
  const RuleLoad load = load_rules(rules.path(), cache.path());
  EXPECT_TRUE(load.problems.empty());
  EXPECT_EQ(load.rules.size(), 1u);
  // An entry whose document no longer passes the meaning checks is ignored too.
  auto doc = parse_yaml_as_json(kRule, "x");
  (*doc)["message"] = "{no_such_field}";
  store_rule_cache(cache.path(), rules.path(), key_now(), {*doc});
  const RuleLoad again = load_rules(rules.path(), cache.path());
  EXPECT_TRUE(again.problems.empty());
  EXPECT_EQ(again.rules.rules().at(0).message, "a call to {resolved}");
}

TEST_F(RuleCache, ADirectoryWithProblemsIsNotCached) {
  rules.write("timing/broken.yaml", "id: broken\nseverity: sometimes\n");
  EXPECT_FALSE(load_rules(rules.path(), cache.path()).problems.empty());
  EXPECT_EQ(entries(), 0u);
  EXPECT_FALSE(load_rules(rules.path(), cache.path()).problems.empty());
}

}  // namespace
}  // namespace kgate
