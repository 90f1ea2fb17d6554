// run_audit: resume skips files whose path and content hash are logged, redoes changed files, drops
// records of files that left the audit, and runs the later stages on each new record.
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "analyzers/audit/audit.h"
#include "analyzers/audit/results_log.h"

namespace fs = std::filesystem;
using kgate::BatchItem;
using kgate::audit::AuditOptions;
using kgate::audit::run_audit;

namespace {

class AuditRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kgate_audit_run_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "src");
    options_.out_dir = dir_ / "out";
    options_.jobs = 2;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string put(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / "src" / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  std::vector<BatchItem> items(const std::vector<std::string>& paths) const {
    std::vector<BatchItem> out;
    for (const auto& p : paths) out.push_back({p, &context_});
    return out;
  }
  std::vector<nlohmann::json> logged() const {
    auto log = kgate::audit::read_log(options_.out_dir / kgate::audit::kLogName);
    EXPECT_TRUE(log) << log.error();
    return log ? log->records : std::vector<nlohmann::json>{};
  }

  fs::path dir_;
  kgate::AnalysisContext context_;  // no rules: input findings and metrics only
  AuditOptions options_;
};

}  // namespace

TEST_F(AuditRun, SecondRunReusesEveryRecord) {
  const auto files = items({put("a.py", "x = 1\n"), put("b.py", "y = 2\n"), put("c.cu", "__global__ void k() {}\n")});
  auto first = run_audit(files, options_);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->analysed, 3u);
  EXPECT_EQ(first->reused, 0u);
  auto second = run_audit(files, options_);
  ASSERT_TRUE(second) << second.error();
  EXPECT_EQ(second->analysed, 0u);
  EXPECT_EQ(second->reused, 3u);
  EXPECT_EQ(logged().size(), 3u);
}

TEST_F(AuditRun, ChangedFileIsRedoneAndItsOldRecordDropped) {
  const std::string a = put("a.py", "x = 1\n"), b = put("b.py", "y = 2\n");
  ASSERT_TRUE(run_audit(items({a, b}), options_));
  put("b.py", "y = 3\nz = 4\n");
  auto again = run_audit(items({a, b}), options_);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->analysed, 1u);
  EXPECT_EQ(again->reused, 1u);
  EXPECT_EQ(again->stale_dropped, 1u);
  const auto records = logged();
  ASSERT_EQ(records.size(), 2u);
  for (const auto& r : records)
    if (r["path"] == b) {
      EXPECT_EQ(r["metrics"]["lines"], 2);
    }
}

TEST_F(AuditRun, FileThatLeftTheAuditIsDropped) {
  const std::string a = put("a.py", "x = 1\n"), b = put("b.py", "y = 2\n");
  ASSERT_TRUE(run_audit(items({a, b}), options_));
  auto again = run_audit(items({a}), options_);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->stale_dropped, 1u);
  const auto records = logged();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["path"], a);
}

TEST_F(AuditRun, TornTailIsDroppedAndRedone) {
  const std::string a = put("a.py", "x = 1\n"), b = put("b.py", "y = 2\n");
  ASSERT_TRUE(run_audit(items({a}), options_));
  std::ofstream(options_.out_dir / kgate::audit::kLogName, std::ios::app) << "{\"path\":\"" << b << "\",\"sha";
  auto again = run_audit(items({a, b}), options_);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->torn_dropped, 1u);
  EXPECT_EQ(again->analysed, 1u);
  EXPECT_EQ(logged().size(), 2u);
}

TEST_F(AuditRun, RecordCarriesHashExcerptsAndStageFields) {
  const std::string empty = put("empty.py", "");
  const std::string tiny = put("tiny.py", "line one\nline two\n");
  options_.stages.push_back([](const BatchItem&, const kgate::FileResult& result, nlohmann::json& record) {
    record["runtime"] = {{"speedup", result.rejected ? 0.0 : 1.5}};
  });
  auto outcome = run_audit(items({empty, tiny}), options_);
  ASSERT_TRUE(outcome) << outcome.error();
  for (const auto& r : logged()) {
    EXPECT_EQ(r["sha256"].get<std::string>().size(), 64u);
    EXPECT_TRUE(r.contains("runtime")) << r.dump();
    EXPECT_TRUE(r.contains("elapsed_ms"));
    if (r["path"] == empty) {
      ASSERT_FALSE(r["findings"].empty());
      EXPECT_EQ(r["findings"][0]["rule"], "input-empty");
    }
  }
}

TEST_F(AuditRun, EditedLogIsAnErrorNotACrash) {
  fs::create_directories(options_.out_dir);
  std::ofstream(options_.out_dir / kgate::audit::kLogName) << "garbage\n{\"path\":\"a\"}\n";
  auto outcome = run_audit(items({put("a.py", "x = 1\n")}), options_);
  ASSERT_FALSE(outcome);
  EXPECT_NE(outcome.error().find("not an audit record"), std::string::npos) << outcome.error();
}

TEST(AuditRecord, ExcerptAroundTheFinding) {
  kgate::FileResult result;
  result.path = "f.py";
  kgate::Diagnostic d;
  d.rule = "some-rule";
  d.span = {4, 1, 4, 5};
  result.findings.push_back(d);
  const std::string text = "l1\nl2\nl3\nl4\nl5\nl6\nl7\n";
  const nlohmann::json record = kgate::audit::make_record(result, "h", text, 1.0);
  const auto& excerpt = record["findings"][0]["excerpt"];
  EXPECT_EQ(excerpt["first_line"], 2);
  EXPECT_EQ(excerpt["lines"], nlohmann::json({"l2", "l3", "l4", "l5", "l6"}));
}

TEST_F(AuditRun, LogMadeWithOtherSettingsIsNotResumed) {
  const auto files = items({put("a.py", "x = 1\n")});
  options_.settings = {{"policy", "kernelbench"}, {"rules", "hash-1"}};
  ASSERT_TRUE(run_audit(files, options_));
  options_.settings["rules"] = "hash-2";
  auto other = run_audit(files, options_);
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().find("other settings (rules)"), std::string::npos) << other.error();
  options_.settings["rules"] = "hash-1";
  auto same = run_audit(files, options_);
  ASSERT_TRUE(same) << same.error();
  EXPECT_EQ(same->reused, 1u);
}
