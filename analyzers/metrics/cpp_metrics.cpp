// The tree-sitter-cuda counter of C++/CUDA metrics (docs/metrics.md), for modules whose facts the
// Clang engine did not make (it counts its own: analyzers/cuda/clang/clang_metrics.cpp). It finds the
// decisions, logical lines, tokens and comments of a tree-sitter-cuda parse and hands them to the
// shared CppLedger (cpp_counting.h), which applies the counting rules.
#include "analyzers/metrics/cpp_metrics.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/metrics/cpp_counting.h"
#include "analyzers/treesitter/ts_node.h"

extern "C" const TSLanguage* tree_sitter_cuda(void);

namespace kgate::metrics {
namespace {

using ts::is;

bool is_cpp(Language l) { return l == Language::Cuda || l == Language::Cpp; }

// A directive token's name without `#` and spaces: "# define" -> "define".
std::string_view directive_name(std::string_view token) {
  token.remove_prefix(1);
  while (!token.empty() && (token.front() == ' ' || token.front() == '\t')) token.remove_prefix(1);
  return token;
}

// Where one decision of McCabe's count sits (lizard's: if for while do case catch && || ?: #if #ifdef
// #elif), or nullopt: the keyword, the operator, or the directive.
std::optional<uint32_t> decision_at(TSNode n, std::string_view src) {
  const std::string_view t = ts::type(n);
  if (t == "if_statement" || t == "for_statement" || t == "for_range_loop" || t == "while_statement" ||
      t == "do_statement" || t == "catch_clause")
    return ts_node_start_byte(n);
  if (t == "case_statement") {
    if (ts_node_is_null(ts::field(n, "value"))) return std::nullopt;  // `default:` decides nothing
    return ts_node_start_byte(n);
  }
  if (t == "conditional_expression") {
    for (uint32_t i = 0, k = ts::count(n); i < k; ++i)
      if (ts::type(ts::child(n, i)) == "?") return ts_node_start_byte(ts::child(n, i));
    return std::nullopt;
  }
  if (t == "binary_expression") {
    const TSNode op = ts::field(n, "operator");
    const std::string_view o = ts::text(op, src);
    if (o == "&&" || o == "||" || o == "and" || o == "or") return ts_node_start_byte(op);
    return std::nullopt;
  }
  if (t == "preproc_if" || t == "preproc_ifdef" || t == "preproc_elif") {
    const TSNode directive = ts::child(n, 0);
    const std::string_view d = ts::text(directive, src);
    if (!d.empty() && d.front() == '#' && is_deciding_directive(directive_name(d)))
      return ts_node_start_byte(directive);
  }
  return std::nullopt;
}

// A statement, declaration or directive: one logical line.
bool is_logical_line(std::string_view t) {
  static const std::set<std::string_view> kinds = {
      "declaration",        "expression_statement", "return_statement", "if_statement",
      "for_statement",      "for_range_loop",       "while_statement",  "do_statement",
      "switch_statement",   "case_statement",       "break_statement",  "continue_statement",
      "goto_statement",     "throw_statement",      "try_statement",    "labeled_statement",
      "field_declaration",  "function_definition",  "type_definition",  "alias_declaration",
      "using_declaration",  "preproc_include",      "preproc_def",      "preproc_function_def",
      "preproc_call",       "preproc_if",           "preproc_ifdef",    "static_assert_declaration",
      "co_return_statement"};
  return kinds.count(t) > 0;
}

// Leaves that are one token although tree-sitter gives them children.
bool is_atomic(std::string_view t) {
  return t == "string_literal" || t == "raw_string_literal" || t == "char_literal" || t == "system_lib_string";
}

bool is_literal(std::string_view t) {
  return t == "number_literal" || t == "string_literal" || t == "raw_string_literal" || t == "char_literal" ||
         t == "system_lib_string" || t == "preproc_arg";
}

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n\\") == std::string_view::npos; }

// Halstead's role of a leaf token, by the rules (not by tree-sitter's naming: `size_t` is a
// primitive_type there but an identifier in C++; `static_cast` an identifier there but a keyword).
TokenRole role_of(TSNode leaf, std::string_view token) {
  if (token == ")" || token == "]" || token == "}") return TokenRole::ClosingBracket;
  if (token.front() == '#') return TokenRole::Operator;  // a directive: `#include`, `#pragma`
  const std::string_view t = ts::type(leaf);
  if (is_literal(t) || is_literal_keyword(token)) return TokenRole::Operand;
  if (!ts_node_is_named(leaf) || is_cpp_keyword(token) || is_cuda_keyword(token)) return TokenRole::Operator;
  return TokenRole::Operand;  // identifiers of every kind (type, field, namespace, label)
}

struct LedgerBuilder {
  std::string_view src;
  CppLedger& ledger;
  std::vector<TSNode>& definitions;  // the function definitions, in text order (the same walk finds them)

  // Hostile nesting stops the count, not the process: nothing nested deeper than kMaxDepth is counted.
  static constexpr int kMaxDepth = 1000;

  void walk(TSNode n, int depth = 0, bool in_directive = false) {
    if (depth > kMaxDepth) return;
    const std::string_view t = ts::type(n);
    if (t == "function_definition") definitions.push_back(n);
    // A directive's condition (`#if A && B`) is one decision, the directive's, as lizard counts it.
    if (!in_directive)
      if (auto at = decision_at(n, src)) ledger.decision(*at);
    // `struct S { ... };` inside a class declares a type, not a member: not a logical line.
    if (is_logical_line(t) && !(t == "field_declaration" && ts_node_is_null(ts::field(n, "declarator"))))
      ledger.logical_line(ts_node_start_byte(n));
    const TSPoint start = ts_node_start_point(n), end = ts_node_end_point(n);
    if (t == "comment") {
      ledger.comment(ts_node_start_byte(n), start.row, end.row);
      return;
    }
    const uint32_t k = ts::count(n);
    if (k == 0 || is_atomic(t)) {
      std::string_view token = ts::text(n, src);
      if (t == "preproc_arg")  // a macro's replacement text: one operand, as written
        while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\r'))
          token.remove_suffix(1);
      if (token.empty() || blank(token)) return;  // a MISSING node of a repaired parse; a directive's newline
      // A directive spelled with spaces (`# define`) is the same operator as `#define`.
      if (token.front() == '#' && directive_name(token).size() + 1 != token.size())
        token = ledger.own("#" + std::string(directive_name(token)));
      // The rows of the token itself: a leaf that ends a line (`preproc_arg`) ends there.
      const uint32_t last_row = end.column == 0 && end.row > start.row ? end.row - 1 : end.row;
      if (t == "number_literal" && token.size() > 1 && (token.front() == '-' || token.front() == '+')) {
        // tree-sitter-cuda reads `-1` as one literal; C++ (and Clang's lexer) as the operator `-` and `1`.
        ledger.token(ts_node_start_byte(n), token.substr(0, 1), TokenRole::Operator, start.row, start.row);
        ledger.token(ts_node_start_byte(n) + 1, token.substr(1), TokenRole::Operand, start.row, last_row);
        return;
      }
      ledger.token(ts_node_start_byte(n), token, role_of(n, token), start.row, last_row);
      return;
    }
    const TSNode condition = t == "preproc_if" || t == "preproc_elif" ? ts::field(n, "condition") : TSNode{};
    for (uint32_t i = 0; i < k; ++i) {
      const TSNode c = ts::child(n, i);
      walk(c, depth + 1, in_directive || (!ts_node_is_null(condition) && ts_node_eq(c, condition)));
    }
  }
};

// The identifier that names a function definition (the last component of a qualified name).
TSNode name_of(TSNode definition) {
  TSNode d = ts::field(definition, "declarator");
  for (int guard = 0; guard < 16 && !ts_node_is_null(d); ++guard) {
    const std::string_view t = ts::type(d);
    if (t == "identifier" || t == "field_identifier" || t == "operator_name" || t == "destructor_name") return d;
    if (t == "qualified_identifier") {
      d = ts::field(d, "name");
      continue;
    }
    if (t == "template_function") {
      d = ts::field(d, "name");
      continue;
    }
    TSNode inner = ts::field(d, "declarator");
    d = ts_node_is_null(inner) ? ts::named_child(d, 0) : inner;
  }
  return TSNode{};
}

using Positions = std::map<std::pair<uint32_t, uint32_t>, size_t>;

// The function facts of every C++ module by the host position of their name. Not per module: an
// engine may put the functions of sources that load_inline joins into one module's facts.
Positions cpp_functions_by_position(const FactSet& facts) {
  Positions out;
  for (size_t i = 0; i < facts.functions.size(); ++i) {
    const int m = facts.functions[i].module;
    if (m >= 0 && m < static_cast<int>(facts.modules.size()) && is_cpp(facts.modules[m].language))
      out[{facts.functions[i].span.line, facts.functions[i].span.col}] = i;
  }
  return out;
}

void measure_module(const SourceFile& host, FactSet& facts, int module, const Positions& by_position) {
  const Module& mod = facts.modules[module];
  const std::string_view text = mod.text;
  thread_local ts::ParserPtr parser = [] {
    ts::ParserPtr p(ts_parser_new());
    ts_parser_set_language(p.get(), tree_sitter_cuda());
    return p;
  }();
  ts_parser_reset(parser.get());
  ts::TreePtr tree(ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())));
  if (!tree) return;
  const TSNode root = ts_tree_root_node(tree.get());

  CppLedger ledger;
  std::vector<TSNode> defs;
  LedgerBuilder{text, ledger, defs}.walk(root);
  constexpr std::string_view kCounter = "tree-sitter-cuda";
  for (TSNode def : defs) {
    const TSNode name = name_of(def);
    if (ts_node_is_null(name)) continue;
    const Span at = mod.host_span(host, ts_node_start_byte(name), ts_node_end_byte(name));
    auto it = by_position.find({at.line, at.col});
    if (it == by_position.end() || facts.functions[it->second].metrics.measured) continue;
    ledger.measure(ts_node_start_byte(def), ts_node_end_byte(def), facts.functions[it->second].metrics, kCounter);
  }
  ledger.measure(0, static_cast<uint32_t>(text.size()), facts.modules[module].metrics, kCounter);
}

}  // namespace

void measure_cpp(const SourceFile& host, FactSet& facts) {
  const Positions by_position = cpp_functions_by_position(facts);
  for (size_t m = 0; m < facts.modules.size(); ++m)
    // Modules the Clang engine made facts of are measured already (by its own counter).
    if (is_cpp(facts.modules[m].language) && !facts.modules[m].metrics.measured)
      measure_module(host, facts, static_cast<int>(m), by_position);
}

}  // namespace kgate::metrics
