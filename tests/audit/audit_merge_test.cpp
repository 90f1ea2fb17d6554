// kgate audit merge: shard logs become one log, the union by path; mixing audits is refused.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "analyzers/audit/audit.h"
#include "analyzers/audit/merge.h"
#include "analyzers/audit/results_log.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class AuditMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("kgate_merge_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path shard(const std::string& name, const std::vector<json>& records, const json& settings) {
    const fs::path dir = root_ / name;
    fs::create_directories(dir);
    std::ofstream log(dir / kgate::audit::kLogName);
    for (const auto& r : records) log << kgate::audit::to_log_line(r);
    if (!settings.is_null()) std::ofstream(dir / kgate::audit::kSettingsName) << settings.dump(2) << "\n";
    return dir;
  }

  static json record(const std::string& path, const std::string& verdict, double elapsed = 1.0) {
    return {{"path", path}, {"verdict", verdict}, {"sha256", "h-" + path}, {"elapsed_ms", elapsed}};
  }

  fs::path root_;
  const json settings_ = {{"kgate", "test"}, {"policy", "kernelbench"}};
};

TEST_F(AuditMerge, UnionOfShardsSortedByPathAndWritten) {
  const fs::path a = shard("a", {record("z.py", "pass"), record("b.py", "reject")}, settings_);
  const fs::path b = shard("b", {record("c.py", "unjudged")}, settings_);
  auto merged = kgate::audit::merge_audits({a, b}, root_ / "out");
  ASSERT_TRUE(merged) << merged.error();
  ASSERT_EQ(merged->records.size(), 3u);
  EXPECT_EQ(merged->records[0]["path"], "b.py");
  EXPECT_EQ(merged->records[1]["path"], "c.py");
  EXPECT_EQ(merged->records[2]["path"], "z.py");
  EXPECT_EQ(merged->settings, settings_);
  auto written = kgate::audit::read_log(root_ / "out" / kgate::audit::kLogName);
  ASSERT_TRUE(written) << written.error();
  EXPECT_EQ(written->records, merged->records);
  std::ifstream in(root_ / "out" / kgate::audit::kSettingsName);
  EXPECT_EQ(json::parse(in), settings_);
}

TEST_F(AuditMerge, IdenticalDuplicateKeptOnceWhateverItsTiming) {
  const fs::path a = shard("a", {record("x.py", "pass", 3.0)}, settings_);
  const fs::path b = shard("b", {record("x.py", "pass", 9.0)}, settings_);
  auto merged = kgate::audit::merge_audits({a, b}, root_ / "out");
  ASSERT_TRUE(merged) << merged.error();
  EXPECT_EQ(merged->records.size(), 1u);
  EXPECT_EQ(merged->duplicates, 1u);
}

TEST_F(AuditMerge, ConflictingRecordsOfOnePathAreRefused) {
  const fs::path a = shard("a", {record("x.py", "pass")}, settings_);
  const fs::path b = shard("b", {record("x.py", "reject")}, settings_);
  auto merged = kgate::audit::merge_audits({a, b}, root_ / "out");
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().find("x.py"), std::string::npos) << merged.error();
  EXPECT_FALSE(fs::exists(root_ / "out" / kgate::audit::kLogName));
}

TEST_F(AuditMerge, DifferentSettingsAreRefusedByName) {
  json other = settings_;
  other["policy"] = "repository";
  const fs::path a = shard("a", {record("x.py", "pass")}, settings_);
  const fs::path b = shard("b", {record("y.py", "pass")}, other);
  auto merged = kgate::audit::merge_audits({a, b}, root_ / "out");
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().find("policy"), std::string::npos) << merged.error();
}

TEST_F(AuditMerge, InputWithoutLogAndOutputAmongInputsAreRefused) {
  const fs::path a = shard("a", {record("x.py", "pass")}, settings_);
  fs::create_directories(root_ / "empty");
  EXPECT_FALSE(kgate::audit::merge_audits({a, root_ / "empty"}, root_ / "out"));
  EXPECT_FALSE(kgate::audit::merge_audits({a}, a));
  EXPECT_FALSE(kgate::audit::merge_audits({}, root_ / "out"));
}

TEST_F(AuditMerge, TornLastLineOfAShardIsDropped) {
  const fs::path a = shard("a", {record("x.py", "pass")}, settings_);
  std::ofstream(a / kgate::audit::kLogName, std::ios::app) << "{\"path\": \"y.p";
  auto merged = kgate::audit::merge_audits({a}, root_ / "out");
  ASSERT_TRUE(merged) << merged.error();
  EXPECT_EQ(merged->records.size(), 1u);
  EXPECT_EQ(merged->torn_dropped, 1u);
}

}  // namespace
