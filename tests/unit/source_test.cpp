// LineIndex, SourceMap and SourceFile: byte offsets to 1-based line:col, and embedded-string maps.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzers/core/fingerprint.h"
#include "analyzers/core/source.h"

namespace kgate {
namespace {

TEST(LineIndex, MapsOffsetsToOneBasedLineAndByteColumn) {
  const LineIndex index("ab\ncd\n\nxyz");
  EXPECT_EQ(index.line_count(), 4u);
  EXPECT_EQ(index.position(0).line, 1u);
  EXPECT_EQ(index.position(0).col, 1u);
  EXPECT_EQ(index.position(2).line, 1u);  // the '\n' belongs to line 1
  EXPECT_EQ(index.position(2).col, 3u);
  EXPECT_EQ(index.position(3).line, 2u);
  EXPECT_EQ(index.position(3).col, 1u);
  EXPECT_EQ(index.position(6).line, 3u);
  EXPECT_EQ(index.position(9).line, 4u);
  EXPECT_EQ(index.position(9).col, 3u);
}

TEST(LineIndex, OffsetsPastTheEndClampToTheEnd) {
  const LineIndex index("ab\ncd");
  EXPECT_EQ(index.position(100).line, 2u);
  EXPECT_EQ(index.position(100).col, 3u);
}

TEST(LineIndex, ColumnsCountBytesNotCharacters) {
  const LineIndex index("\xc3\xa9x");  // "éx": é is two bytes
  EXPECT_EQ(index.position(2).col, 3u);
}

TEST(LineIndex, LineRangeExcludesTheNewline) {
  const LineIndex index("ab\ncd\n");
  EXPECT_EQ(index.line_range(1), std::make_pair(0u, 2u));
  EXPECT_EQ(index.line_range(2), std::make_pair(3u, 5u));
  EXPECT_EQ(index.line_range(3), std::make_pair(6u, 6u));
  EXPECT_EQ(index.line_range(0), std::make_pair(6u, 6u));  // out of range: empty at the end
  EXPECT_EQ(index.line_range(99), std::make_pair(6u, 6u));
}

TEST(LineIndex, EmptyTextHasOneEmptyLine) {
  const LineIndex index("");
  EXPECT_EQ(index.line_count(), 1u);
  EXPECT_EQ(index.position(0).line, 1u);
  EXPECT_EQ(index.position(0).col, 1u);
}

TEST(SourceMap, RunsAndSingleBytesMapToHostOffsets) {
  // Host: cuda = "a\nb" written as the literal "a\\nb" starting at host offset 10:
  // decoded 'a' <- 10, '\n' <- 11 (two host bytes), 'b' <- 13.
  SourceMap map;
  map.append(10);
  map.append(11);
  map.append_run(13, 1);
  EXPECT_EQ(map.size(), 3u);
  EXPECT_EQ(map.host_offset(0), 10u);
  EXPECT_EQ(map.host_offset(1), 11u);
  EXPECT_EQ(map.host_offset(2), 13u);
  EXPECT_EQ(map.host_offset(3), 14u);  // one past the end
  EXPECT_EQ(map.host_offset(50), 14u);
}

TEST(SourceMap, ConcatenationAppendsMaps) {
  SourceMap left, right;
  left.append_run(5, 3);
  right.append_run(20, 2);
  left.append_map(right);
  EXPECT_EQ(left.size(), 5u);
  EXPECT_EQ(left.host_offset(2), 7u);
  EXPECT_EQ(left.host_offset(3), 20u);
  EXPECT_EQ(left.host_offset(4), 21u);
}

TEST(SourceMap, EmptyMapIsIdentity) {
  SourceMap map;
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.host_offset(42), 42u);
}

TEST(SourceFile, SpanAndLineText) {
  const SourceFile file("x.py", "import torch\r\n  y = torch.mm(a, b)\n");
  const Span span = file.span(16, 24);  // "torch.mm"
  EXPECT_EQ(span.line, 2u);
  EXPECT_EQ(span.col, 3u);
  EXPECT_EQ(span.end_line, 2u);
  EXPECT_EQ(span.end_col, 11u);                  // exclusive, as SARIF's endColumn
  EXPECT_EQ(file.line_text(1), "import torch");  // CR of CRLF dropped
  EXPECT_EQ(file.line_text(2), "  y = torch.mm(a, b)");
  EXPECT_EQ(file.line_text(3), "");
  EXPECT_EQ(file.line_text(7), "");
}

TEST(Fingerprint, StableUnderIndentationAndSensitiveToRuleAndPath) {
  const auto base = fingerprint("r", "a.py", "x = torch.mm(a, b)");
  EXPECT_EQ(base.size(), 16u);
  EXPECT_EQ(base, fingerprint("r", "a.py", "    x = torch.mm(a, b)  "));
  EXPECT_NE(base, fingerprint("s", "a.py", "x = torch.mm(a, b)"));
  EXPECT_NE(base, fingerprint("r", "b.py", "x = torch.mm(a, b)"));
  EXPECT_NE(fingerprint("ab", "c", ""), fingerprint("a", "bc", ""));
}

TEST(Fingerprint, TheSameFileNamedDifferentlyKeepsItsFingerprint) {
  const auto base = fingerprint("r", "corpus/a.py", "x");
  EXPECT_EQ(base, fingerprint("r", "./corpus//a.py", "x"));
  EXPECT_EQ(base, fingerprint("r", "corpus/sub/../a.py", "x"));
  EXPECT_EQ(base, fingerprint("r", (std::filesystem::current_path() / "corpus/a.py").string(), "x"));
  EXPECT_EQ(invocation_relative_path("/work/repo/./x/", "/work/repo"), "x");
  EXPECT_EQ(invocation_relative_path("/elsewhere/x.py", "/work/repo"), "/elsewhere/x.py");
}

TEST(Severity, RoundTripsThroughText) {
  for (Severity s : {Severity::Note, Severity::Warning, Severity::Error}) EXPECT_EQ(parse_severity(to_string(s)), s);
  EXPECT_FALSE(parse_severity("fatal").has_value());
  EXPECT_FALSE(parse_severity("Error").has_value());
}

}  // namespace
}  // namespace kgate
