// Ingest: every input-* refusal, with its location, and the file-kind table.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzers/core/file_text.h"
#include "analyzers/ingest/ingest.h"
#include "test_support.h"

namespace kgate::ingest {
namespace {

using kgate::testing::ScratchDir;

struct Outcome {
  std::optional<SourceFile> source;
  std::vector<Diagnostic> diagnostics;
};

Outcome read(const std::string& path, const Limits& limits = {}) {
  Outcome out;
  out.source = read_source(path, {}, limits, out.diagnostics);
  return out;
}

Outcome read_text(std::string text, const Limits& limits = {}) {
  Outcome out;
  out.source = read_source("mem.py", std::move(text), limits, out.diagnostics, true);
  return out;
}

TEST(Ingest, KindFromPath) {
  EXPECT_EQ(kind_from_path("a/b/sub.py"), FileKind::Python);
  EXPECT_EQ(kind_from_path("K.CU"), FileKind::Cuda);
  for (const char* p : {"x.cu", "x.cuh", "x.cpp", "x.cc", "x.cxx", "x.h", "x.hpp"})
    EXPECT_EQ(kind_from_path(p), FileKind::Cuda) << p;
  EXPECT_EQ(kind_from_path("notes.txt"), FileKind::Unknown);
  EXPECT_EQ(kind_from_path("Makefile"), FileKind::Unknown);
}

TEST(Ingest, ReadsAGoodFile) {
  ScratchDir dir;
  const auto file = dir.write("ok.py", "import torch\n");
  const auto out = read(file.string());
  ASSERT_TRUE(out.source.has_value());
  EXPECT_TRUE(out.diagnostics.empty());
  EXPECT_EQ(out.source->text, "import torch\n");
  EXPECT_EQ(out.source->path, file.string());
}

TEST(Ingest, MissingFileIsUnreadable) {
  const auto out = read("/nonexistent/dir/x.py");
  EXPECT_FALSE(out.source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].rule, "input-unreadable");
  EXPECT_EQ(out.diagnostics[0].severity, Severity::Error);
  EXPECT_EQ(out.diagnostics[0].engine, "ingest");
}

TEST(Ingest, DirectoryIsUnreadable) {
  ScratchDir dir;
  const auto out = read(dir.path().string());
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].rule, "input-unreadable");
}

TEST(Ingest, EmptyFileIsAWarning) {
  ScratchDir dir;
  const auto out = read(dir.write("empty.py", "").string());
  EXPECT_FALSE(out.source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].rule, "input-empty");
  EXPECT_EQ(out.diagnostics[0].severity, Severity::Warning);
}

TEST(Ingest, TenMegabyteFileIsTooLargeWithoutBeingRead) {
  ScratchDir dir;
  const auto file = dir.write("huge.py", std::string(10u << 20, 'x'));
  const auto out = read(file.string());
  EXPECT_FALSE(out.source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].rule, "input-too-large");
  EXPECT_NE(out.diagnostics[0].message.find("10485760"), std::string::npos);
  EXPECT_NE(out.diagnostics[0].message.find("4194304"), std::string::npos);
}

TEST(Ingest, LimitIsConfigurable) {
  Limits limits;
  limits.max_file_bytes = 4;
  EXPECT_EQ(read_text("12345", limits).diagnostics.at(0).rule, "input-too-large");
  EXPECT_TRUE(read_text("1234", limits).source.has_value());
}

TEST(Ingest, NulByteIsBinaryAtItsLocation) {
  const auto out = read_text(std::string("x = 1\ny = \0\n", 12));
  EXPECT_FALSE(out.source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].rule, "input-binary");
  EXPECT_EQ(out.diagnostics[0].span.line, 2u);
  EXPECT_EQ(out.diagnostics[0].span.col, 5u);
}

TEST(Ingest, MostlyControlBytesIsBinary) {
  std::string text(100, '\x01');
  text += std::string(100, 'a');
  EXPECT_EQ(read_text(text).diagnostics.at(0).rule, "input-binary");
}

TEST(Ingest, SomeControlBytesAreStillText) {
  std::string text(20, '\x1b');  // 20% escape characters: a coloured log, not a binary
  text += std::string(80, 'a');
  EXPECT_TRUE(read_text(text).source.has_value());
  EXPECT_TRUE(read_text("a\tb\r\nc\f\v\n").source.has_value());  // whitespace controls do not count
}

TEST(Ingest, OnlyTheFirst8KiBAreSniffed) {
  std::string text(9000, 'a');
  text += std::string(1000, '\x01');
  EXPECT_TRUE(read_text(text).source.has_value());
}

TEST(Ingest, InvalidUtf8IsReportedAtTheFirstBadByte) {
  const auto out = read_text("ok = 1\ns = '\xff'\n");
  EXPECT_FALSE(out.source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].rule, "input-invalid-utf8");
  EXPECT_EQ(out.diagnostics[0].span.line, 2u);
  EXPECT_EQ(out.diagnostics[0].span.col, 6u);
  EXPECT_NE(out.diagnostics[0].message.find("0xFF"), std::string::npos);
}

TEST(Utf8, AcceptsValidSequences) {
  EXPECT_EQ(find_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("plain ascii"), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), std::string_view::npos);  // é € 😀
  EXPECT_EQ(find_invalid_utf8("\xef\xbb\xbfx"), std::string_view::npos);                         // BOM
  EXPECT_EQ(find_invalid_utf8("\xf4\x8f\xbf\xbf"), std::string_view::npos);                      // U+10FFFF
}

TEST(Utf8, RejectsMalformedSequences) {
  EXPECT_EQ(find_invalid_utf8("ab\x80"), 2u);                // stray continuation
  EXPECT_EQ(find_invalid_utf8("\xc0\xaf"), 0u);              // overlong '/'
  EXPECT_EQ(find_invalid_utf8("\xe0\x80\xaf"), 0u);          // overlong 3-byte
  EXPECT_EQ(find_invalid_utf8("\xed\xa0\x80"), 0u);          // UTF-16 surrogate
  EXPECT_EQ(find_invalid_utf8("\xf4\x90\x80\x80"), 0u);      // above U+10FFFF
  EXPECT_EQ(find_invalid_utf8("x\xe2\x82"), 1u);             // truncated at the end
  EXPECT_EQ(find_invalid_utf8("\xe2\x28\xa1"), 0u);          // bad continuation
  EXPECT_EQ(find_invalid_utf8("\xf8\x88\x80\x80\x80"), 0u);  // 5-byte form
}

}  // namespace
}  // namespace kgate::ingest
