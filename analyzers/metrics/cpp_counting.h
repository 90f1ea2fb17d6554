// The C++/CUDA counting rules of docs/metrics.md, in one place for both counters: the vocabulary
// (which words are keywords, which directives decide) and the ledger that turns what a counter found
// in a text into CC, Halstead's counts and line counts for any byte range of it (a function, a module).
//
// The two counters differ only in how they find things: the tree-sitter-cuda counter
// (cpp_metrics.cpp) from a tree-sitter parse, the Clang counter (analyzers/cuda/clang/clang_metrics.cpp)
// from the AST, the preprocessor and Clang's lexer. Both fill a CppLedger, and the ledger applies the rules.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/facts.h"

namespace kgate::metrics {

// What a token is to Halstead. A closing bracket is not counted (the pair counts once, at its opening
// bracket) but still makes its line a line of code.
enum class TokenRole : uint8_t { Operator, Operand, ClosingBracket };

// C++ keywords as Clang knows them in CUDA C++17 (including the GNU spellings `__restrict__`,
// `__attribute__`, `__inline__`), and CUDA's declaration specifiers (`__global__`, `__device__`, ...), which
// nvcc reads as keywords and Clang implements as macros. The tree-sitter counter classifies by this
// list; the Clang counter asks Clang's identifier table and this list only for the CUDA words
// (tests/unit/cuda/cuda_clang_metrics_test.cpp and metrics.reference_tools check that both count alike).
bool is_cpp_keyword(std::string_view word);
bool is_cuda_keyword(std::string_view word);
// Keywords that name values, hence operands: true false nullptr this.
bool is_literal_keyword(std::string_view word);
// The directive names (after `#`) that are decisions, as lizard counts them: if ifdef elif.
bool is_deciding_directive(std::string_view name);
// Directives that are a logical line: every one but the alternatives and ends of a conditional block
// (else elif elifdef elifndef endif), so an `#if` ... `#endif` block is one logical line.
bool is_logical_directive(std::string_view name);

// What one counter found in one text, by byte offset of that text. Offsets are added in any order;
// measure() may be called for any number of ranges once everything is added.
class CppLedger {
 public:
  // `text` must outlive the ledger (a view of the measured text, or of one the ledger owns: own()).
  void token(uint32_t offset, std::string_view text, TokenRole role, uint32_t first_row, uint32_t last_row);
  void comment(uint32_t offset, uint32_t first_row, uint32_t last_row);
  void decision(uint32_t offset);
  void logical_line(uint32_t offset);
  // Keeps a token text that is not a slice of the measured text (`#include` spelled `# include`).
  std::string_view own(std::string text);

  // The metrics of [begin, end): CC = 1 + decisions, Halstead over the tokens, SLOC = rows holding a
  // token, comment lines = rows holding a comment, LLOC = logical lines; derived measures and MI too.
  void measure(uint32_t begin, uint32_t end, CodeMetrics& out, std::string_view counted_by);

 private:
  struct Token {
    uint32_t offset;
    uint32_t first_row, last_row;
    std::string_view text;
    TokenRole role;
  };
  struct Rows {
    uint32_t offset, first_row, last_row;
  };
  void sort();
  std::vector<Token> tokens_;
  std::vector<Rows> comments_;
  std::vector<uint32_t> decisions_, logical_lines_;
  std::deque<std::string> owned_;
  bool sorted_ = true;
};

}  // namespace kgate::metrics
