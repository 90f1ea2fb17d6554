// The C++/CUDA counting rules of docs/metrics.md: the shared vocabulary and the ledger (cpp_counting.h).
#include "analyzers/metrics/cpp_counting.h"

#include <algorithm>
#include <unordered_set>

#include "analyzers/metrics/maintainability.h"

namespace kgate::metrics {
namespace {

const std::unordered_set<std::string_view>& cpp_keywords() {
  // C++17 as Clang 19 reads `-x cuda -std=c++17` (C++20 words such as `concept` and `co_await` are
  // identifiers there), with the GNU and C11 spellings Clang accepts in every mode.
  static const std::unordered_set<std::string_view> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
      "char16_t", "char32_t", "class", "compl", "const", "constexpr", "const_cast", "continue", "decltype", "default",
      "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
      "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
      "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // GNU and C11 spellings
      "__alignof", "__alignof__", "__asm", "__asm__", "__attribute", "__attribute__", "__const", "__const__",
      "__decltype", "__extension__", "__inline", "__inline__", "__int128", "__label__", "__restrict", "__restrict__",
      "__signed", "__signed__", "__thread", "__typeof", "__typeof__", "__volatile", "__volatile__", "__null",
      "__func__", "__FUNCTION__", "__PRETTY_FUNCTION__", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex",
      "_Noreturn", "_Static_assert", "_Thread_local", "__bf16", "_Float16", "__fp16", "__float128"};
  return words;
}

}  // namespace

bool is_cpp_keyword(std::string_view word) { return cpp_keywords().count(word) > 0; }

bool is_cuda_keyword(std::string_view word) {
  static const std::unordered_set<std::string_view> words = {
      "__global__",  "__device__",        "__host__",        "__shared__",   "__constant__",
      "__managed__", "__grid_constant__", "__forceinline__", "__noinline__", "__launch_bounds__"};
  return words.count(word) > 0;
}

bool is_literal_keyword(std::string_view word) {
  return word == "true" || word == "false" || word == "nullptr" || word == "this" || word == "__null" ||
         word == "__func__" || word == "__FUNCTION__" || word == "__PRETTY_FUNCTION__";
}

bool is_deciding_directive(std::string_view name) { return name == "if" || name == "ifdef" || name == "elif"; }

bool is_logical_directive(std::string_view name) {
  return !name.empty() && name != "else" && name != "elif" && name != "elifdef" && name != "elifndef" &&
         name != "endif";
}

void CppLedger::token(uint32_t offset, std::string_view text, TokenRole role, uint32_t first_row, uint32_t last_row) {
  if (!tokens_.empty() && offset < tokens_.back().offset) sorted_ = false;
  tokens_.push_back({offset, first_row, std::max(first_row, last_row), text, role});
}

void CppLedger::comment(uint32_t offset, uint32_t first_row, uint32_t last_row) {
  if (!comments_.empty() && offset < comments_.back().offset) sorted_ = false;
  comments_.push_back({offset, first_row, std::max(first_row, last_row)});
}

void CppLedger::decision(uint32_t offset) {
  if (!decisions_.empty() && offset < decisions_.back()) sorted_ = false;
  decisions_.push_back(offset);
}

void CppLedger::logical_line(uint32_t offset) {
  if (!logical_lines_.empty() && offset < logical_lines_.back()) sorted_ = false;
  logical_lines_.push_back(offset);
}

std::string_view CppLedger::own(std::string text) { return owned_.emplace_back(std::move(text)); }

void CppLedger::sort() {
  if (sorted_) return;
  std::stable_sort(tokens_.begin(), tokens_.end(), [](const Token& a, const Token& b) { return a.offset < b.offset; });
  std::stable_sort(comments_.begin(), comments_.end(),
                   [](const Rows& a, const Rows& b) { return a.offset < b.offset; });
  std::sort(decisions_.begin(), decisions_.end());
  std::sort(logical_lines_.begin(), logical_lines_.end());
  sorted_ = true;
}

namespace {

// Distinct rows covered by [first_row, last_row] spans that arrive in text order (rows never go back).
struct RowCount {
  int64_t count = 0;
  int64_t next = 0;  // the first row not yet counted
  void add(uint32_t first, uint32_t last) {
    const int64_t from = std::max<int64_t>(first, next);
    if (last >= from) {
      count += last - from + 1;
      next = static_cast<int64_t>(last) + 1;
    }
  }
};

template <typename T, typename Offset>
std::pair<size_t, size_t> range_of(const std::vector<T>& v, uint32_t begin, uint32_t end, Offset offset) {
  auto lo = std::partition_point(v.begin(), v.end(), [&](const T& x) { return offset(x) < begin; });
  auto hi = std::partition_point(lo, v.end(), [&](const T& x) { return offset(x) < end; });
  return {static_cast<size_t>(lo - v.begin()), static_cast<size_t>(hi - v.begin())};
}

}  // namespace

void CppLedger::measure(uint32_t begin, uint32_t end, CodeMetrics& m, std::string_view counted_by) {
  sort();
  const auto same = [](uint32_t x) { return x; };
  auto [d0, d1] = range_of(decisions_, begin, end, same);
  auto [l0, l1] = range_of(logical_lines_, begin, end, same);
  auto [t0, t1] = range_of(tokens_, begin, end, [](const Token& t) { return t.offset; });
  auto [c0, c1] = range_of(comments_, begin, end, [](const Rows& r) { return r.offset; });

  std::unordered_set<std::string_view> operators, operands;
  int64_t operators_total = 0, operands_total = 0;
  RowCount code, comment;
  for (size_t i = t0; i < t1; ++i) {
    const Token& t = tokens_[i];
    code.add(t.first_row, t.last_row);
    if (t.role == TokenRole::Operand) {
      operands.insert(t.text);
      ++operands_total;
    } else if (t.role == TokenRole::Operator) {
      operators.insert(t.text);
      ++operators_total;
    }
  }
  for (size_t i = c0; i < c1; ++i) comment.add(comments_[i].first_row, comments_[i].last_row);

  m = CodeMetrics{};
  m.cyclomatic = 1 + static_cast<int64_t>(d1 - d0);
  m.operators_distinct = static_cast<int64_t>(operators.size());
  m.operands_distinct = static_cast<int64_t>(operands.size());
  m.operators_total = operators_total;
  m.operands_total = operands_total;
  m.sloc = code.count;
  m.lloc = static_cast<int64_t>(l1 - l0);
  m.comment_lines = comment.count;
  m.counted_by = counted_by;
  finish(m, m.sloc > 0 ? static_cast<double>(m.comment_lines) / static_cast<double>(m.sloc) * 100.0 : 0.0);
}

}  // namespace kgate::metrics
