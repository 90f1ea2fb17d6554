// The JSONL log: torn last lines are dropped, edited logs are refused, appends survive reopening.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "analyzers/audit/results_log.h"

namespace fs = std::filesystem;
using kgate::audit::LogWriter;
using kgate::audit::read_log;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kgate_audit_log_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

TEST(AuditLog, MissingFileIsEmpty) {
  auto log = read_log(fresh_dir("missing") / "results.jsonl");
  ASSERT_TRUE(log) << log.error();
  EXPECT_TRUE(log->records.empty());
  EXPECT_EQ(log->good_bytes, 0u);
}

TEST(AuditLog, LastLineWithoutNewlineIsTorn) {
  const fs::path path = fresh_dir("torn") / "results.jsonl";
  const std::string good = "{\"path\":\"a.py\",\"sha256\":\"1\"}\n{\"path\":\"b.py\",\"sha256\":\"2\"}\n";
  write(path, good + "{\"path\":\"c.py\",\"sha2");
  auto log = read_log(path);
  ASSERT_TRUE(log) << log.error();
  ASSERT_EQ(log->records.size(), 2u);
  EXPECT_EQ(log->records[1]["path"], "b.py");
  EXPECT_EQ(log->good_bytes, good.size());
  EXPECT_EQ(log->torn_bytes, std::string("{\"path\":\"c.py\",\"sha2").size());
}

TEST(AuditLog, CompleteJsonWithoutItsNewlineIsStillTorn) {
  // A write cut just before the newline: the object parses, but the line was never finished.
  const fs::path path = fresh_dir("nonewline") / "results.jsonl";
  write(path, "{\"path\":\"a.py\"}\n{\"path\":\"b.py\"}");
  auto log = read_log(path);
  ASSERT_TRUE(log) << log.error();
  EXPECT_EQ(log->records.size(), 1u);
  EXPECT_GT(log->torn_bytes, 0u);
}

TEST(AuditLog, BadLineBeforeTheEndIsAnError) {
  const fs::path path = fresh_dir("edited") / "results.jsonl";
  write(path, "{\"path\":\"a.py\"}\nnot json\n{\"path\":\"b.py\"}\n");
  auto log = read_log(path);
  ASSERT_FALSE(log);
  EXPECT_NE(log.error().find(":2:"), std::string::npos) << log.error();
}

TEST(AuditLog, ObjectWithoutPathIsNotARecord) {
  const fs::path path = fresh_dir("nopath") / "results.jsonl";
  write(path, "{\"file\":\"a.py\"}\n{\"path\":\"b.py\"}\n");
  EXPECT_FALSE(read_log(path));
}

TEST(AuditLog, WriterCutsTheTornTailAndAppendsWholeLines) {
  const fs::path path = fresh_dir("writer") / "results.jsonl";
  write(path, "{\"path\":\"a.py\"}\n{\"path\":\"b");
  auto log = read_log(path);
  ASSERT_TRUE(log) << log.error();
  {
    auto writer = LogWriter::open(path, log->good_bytes);
    ASSERT_TRUE(writer) << writer.error();
    ASSERT_TRUE((*writer)->append({{"path", "b.py"}, {"note", "line\nbreak"}}));
  }
  EXPECT_EQ(read(path), "{\"path\":\"a.py\"}\n{\"note\":\"line\\nbreak\",\"path\":\"b.py\"}\n");
  auto again = read_log(path);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->records.size(), 2u);
  EXPECT_EQ(again->torn_bytes, 0u);
}

TEST(AuditLog, InvalidUtf8IsReplacedSoTheLineParsesBack) {
  const fs::path path = fresh_dir("utf8") / "results.jsonl";
  {
    auto writer = LogWriter::open(path, 0);
    ASSERT_TRUE(writer) << writer.error();
    ASSERT_TRUE((*writer)->append({{"path", "x.py"}, {"message", std::string("bad \xff byte")}}));
  }
  auto log = read_log(path);
  ASSERT_TRUE(log) << log.error();
  ASSERT_EQ(log->records.size(), 1u);
  EXPECT_EQ(log->records[0]["message"], "bad \xEF\xBF\xBD byte");
}

TEST(AuditLog, RewriteReplacesTheWholeFile) {
  const fs::path path = fresh_dir("rewrite") / "results.jsonl";
  write(path, "{\"path\":\"old.py\"}\n");
  ASSERT_TRUE(kgate::audit::rewrite_log(path, {{{"path", "new.py"}}}));
  EXPECT_EQ(read(path), "{\"path\":\"new.py\"}\n");
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}

TEST(AuditLog, SecondLockOnTheSameDirectoryIsRefused) {
  const fs::path dir = fresh_dir("lock");
  auto first = kgate::audit::OutputLock::acquire(dir);
  ASSERT_TRUE(first) << first.error();
  auto second = kgate::audit::OutputLock::acquire(dir);
  ASSERT_FALSE(second);
  EXPECT_NE(second.error().find("another kgate audit"), std::string::npos) << second.error();
  first->reset();
  EXPECT_TRUE(kgate::audit::OutputLock::acquire(dir));
}
