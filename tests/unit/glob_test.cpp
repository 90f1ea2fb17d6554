// The glob matcher of rule conditions and config excludes.
#include <gtest/gtest.h>

#include "analyzers/core/glob.h"

namespace kgate {
namespace {

TEST(Glob, StarMatchesAnyRunIncludingDots) {
  EXPECT_TRUE(glob_match("torch.*", "torch.nn.functional.relu"));
  EXPECT_TRUE(glob_match("torch.*", "torch."));
  EXPECT_FALSE(glob_match("torch.*", "torch"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("torch.empty*", "torch.empty_like"));
  EXPECT_TRUE(glob_match("torch.empty*", "torch.empty"));
  EXPECT_TRUE(glob_match("*.replay", "torch.cuda.CUDAGraph.replay"));
  EXPECT_TRUE(glob_match("torch.*.manual_seed*", "torch.cuda.manual_seed_all"));
  EXPECT_FALSE(glob_match("torch.*.manual_seed", "torch.manual_seed"));
}

TEST(Glob, LiteralMustMatchWhole) {
  EXPECT_TRUE(glob_match("torch.mm", "torch.mm"));
  EXPECT_FALSE(glob_match("torch.mm", "torch.mmx"));
  EXPECT_FALSE(glob_match("torch.mm", "xtorch.mm"));
  EXPECT_FALSE(glob_match("", "a"));
  EXPECT_TRUE(glob_match("", ""));
}

TEST(Glob, QuestionMarkIsOneCharacter) {
  EXPECT_TRUE(glob_match("level?", "level1"));
  EXPECT_FALSE(glob_match("level?", "level"));
  EXPECT_FALSE(glob_match("level?", "level10"));
}

TEST(Glob, Classes) {
  EXPECT_TRUE(glob_match("os.exec[lv]*", "os.execvp"));
  EXPECT_FALSE(glob_match("os.exec[lv]*", "os.execute"));
  EXPECT_TRUE(glob_match("level[0-9]", "level7"));
  EXPECT_FALSE(glob_match("level[0-9]", "levelx"));
  EXPECT_TRUE(glob_match("x[!ab]", "xc"));
  EXPECT_FALSE(glob_match("x[!ab]", "xa"));
  EXPECT_TRUE(glob_match("x[^ab]", "xc"));
  EXPECT_TRUE(glob_match("[]]", "]"));
  EXPECT_TRUE(glob_match("a[", "a["));  // unclosed class: a literal '['
  EXPECT_FALSE(glob_match("a[", "ab"));
}

TEST(Glob, BacktracksAcrossStars) {
  EXPECT_TRUE(glob_match("*a*b*c", "xxaxxbxxbxxc"));
  EXPECT_FALSE(glob_match("*a*b*c", "xxaxxbxxbxx"));
  EXPECT_TRUE(glob_match("a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaab"));
  EXPECT_FALSE(glob_match("a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaa"));
}

TEST(Glob, AnyAndHasGlobChars) {
  EXPECT_TRUE(glob_match_any({"a", "torch.*"}, "torch.mm"));
  EXPECT_FALSE(glob_match_any({}, "torch.mm"));
  EXPECT_TRUE(has_glob_chars("torch.*"));
  EXPECT_TRUE(has_glob_chars("level[12]"));
  EXPECT_FALSE(has_glob_chars("torch.mm"));
}

TEST(PathGlob, StarStaysInOneComponent) {
  EXPECT_TRUE(path_glob_match("*.py", "x.py"));
  EXPECT_FALSE(path_glob_match("*.py", "d/x.py"));
  EXPECT_TRUE(path_glob_match("build/*", "build/x.py"));
  EXPECT_FALSE(path_glob_match("build/*", "build/sub/x.py"));
  EXPECT_FALSE(path_glob_match("a?b", "a/b"));
}

TEST(PathGlob, DoubleStarCrossesDirectories) {
  EXPECT_TRUE(path_glob_match("build/**", "build/sub/x.py"));
  EXPECT_TRUE(path_glob_match("**/x.py", "x.py"));
  EXPECT_TRUE(path_glob_match("**/x.py", "a/b/x.py"));
  EXPECT_TRUE(path_glob_match("a/**/b", "a/b"));
  EXPECT_TRUE(path_glob_match("a/**/b", "a/x/y/b"));
  EXPECT_FALSE(path_glob_match("a/**/b", "a/x/y/c"));
  EXPECT_TRUE(path_glob_match("**", "any/thing"));
  EXPECT_TRUE(path_glob_match("third_party/**/*.cu", "third_party/cutlass/gemm.cu"));
}

// GlobSet tries a wildcard pattern only on texts that start with its literal prefix: the answers must
// stay those of glob_match_any, for prefixes longer than the text, empty prefixes and classes too.
TEST(GlobSet, AgreesWithGlobMatchAny) {
  const std::vector<std::string> patterns = {
      "torch.*", "torch.nn.functional.?elu", "*.mm", "[ab]x*", "cublas*Gemm*", "exact.name", "at::*", "x"};
  const GlobSet set(patterns);
  for (const char* text : {"torch.matmul",
                           "torch.",
                           "torch",
                           "torc",
                           "torch.nn.functional.gelu",
                           "torch.nn.functional.elu",
                           "a.mm",
                           ".mm",
                           "ax",
                           "bx1",
                           "cx",
                           "cublasSgemm",
                           "cublasSgemmEx",
                           "cublasLtGemm",
                           "exact.name",
                           "exact.nam",
                           "at::matmul",
                           "at:",
                           "x",
                           "",
                           "y"}) {
    EXPECT_EQ(set.match(text), glob_match_any(patterns, text)) << text;
  }
  EXPECT_TRUE(set.match("torch.matmul"));
  EXPECT_FALSE(set.match("torc"));
  EXPECT_TRUE(set.match("cublasLtGemm"));
  EXPECT_FALSE(set.match("cublasSgemm"));  // the pattern's `G` is upper-case
  // Patterns that are a literal prefix and stars only are decided by the prefix.
  for (const std::vector<std::string>& only :
       std::vector<std::vector<std::string>>{{"*"}, {"**"}, {"float8**"}, {"ab*", "a*c"}}) {
    const GlobSet stars(only);
    for (const char* text : {"", "a", "ab", "abc", "ac", "float8", "float8_e4m3", "float", "x*"})
      EXPECT_EQ(stars.match(text), glob_match_any(only, text)) << only.front() << " on " << text;
  }
}

}  // namespace
}  // namespace kgate
