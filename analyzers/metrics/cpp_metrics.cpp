// C++/CUDA counting rules (docs/metrics.md), on a tree-sitter-cuda parse of each module. The Clang
// engine's facts get the same numbers: they are matched by position, and the counting is lexical
// (lizard's decisions), which the preprocessed Clang AST cannot give (#if branches, macros).
#include "analyzers/metrics/cpp_metrics.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzers/cuda/cuda_common.h"
#include "analyzers/metrics/maintainability.h"
#include "analyzers/python/ts_node.h"

extern "C" const TSLanguage* tree_sitter_cuda(void);

namespace kgate::metrics {
namespace {

using ts::is;

bool is_cpp(Language l) { return l == Language::Cuda || l == Language::Cpp; }

// One decision of McCabe's count, as lizard counts C++ (if for while case catch && || ?: #if #ifdef #elif).
bool is_decision(TSNode n, std::string_view src) {
  const std::string_view t = ts::type(n);
  if (t == "if_statement" || t == "for_statement" || t == "for_range_loop" || t == "while_statement" || t == "do_statement" ||
      t == "catch_clause" || t == "conditional_expression")
    return true;
  if (t == "case_statement") return !ts_node_is_null(ts::field(n, "value"));  // `default:` decides nothing
  if (t == "binary_expression") {
    const std::string_view op = ts::text(ts::field(n, "operator"), src);
    return op == "&&" || op == "||" || op == "and" || op == "or";
  }
  if (t == "preproc_if" || t == "preproc_ifdef" || t == "preproc_elif") {
    const std::string_view directive = ts::text(ts::child(n, 0), src);
    return directive == "#if" || directive == "#ifdef" || directive == "#elif";
  }
  return false;
}

// A statement, declaration or directive: one logical line.
bool is_logical_line(std::string_view t) {
  static const std::set<std::string_view> kinds = {
      "declaration",       "expression_statement", "return_statement",   "if_statement",      "for_statement",
      "for_range_loop",    "while_statement",      "do_statement",       "switch_statement",  "case_statement",
      "break_statement",   "continue_statement",   "goto_statement",     "throw_statement",   "try_statement",
      "labeled_statement", "field_declaration",    "function_definition", "type_definition",  "alias_declaration",
      "using_declaration", "preproc_include",      "preproc_def",        "preproc_function_def", "preproc_call",
      "preproc_if",        "preproc_ifdef",        "static_assert_declaration", "co_return_statement"};
  return kinds.count(t) > 0;
}

// Leaves that are one token although tree-sitter gives them children.
bool is_atomic(std::string_view t) {
  return t == "string_literal" || t == "raw_string_literal" || t == "char_literal" || t == "system_lib_string";
}

bool is_operand(TSNode leaf) {
  // Named leaves are identifiers and literals; type keywords are named too but are operators.
  const std::string_view t = ts::type(leaf);
  return ts_node_is_named(leaf) && t != "primitive_type" && t != "sized_type_specifier";
}

struct Counter {
  std::string_view src;
  int64_t decisions = 0;
  int64_t lloc = 0;
  std::set<std::string> operators, operands;
  int64_t operators_total = 0, operands_total = 0;
  std::set<uint32_t> code_lines, comment_lines;  // 0-based rows of the module text

  // Hostile nesting stops the count, not the process: nothing nested deeper than kMaxDepth is counted.
  static constexpr int kMaxDepth = 1000;

  void walk(TSNode n, int depth = 0) {
    if (depth > kMaxDepth) return;
    const std::string_view t = ts::type(n);
    if (is_decision(n, src)) ++decisions;
    if (is_logical_line(t)) ++lloc;
    const TSPoint start = ts_node_start_point(n), end = ts_node_end_point(n);
    if (t == "comment") {
      for (uint32_t r = start.row; r <= end.row; ++r) comment_lines.insert(r);
      return;
    }
    if (ts::count(n) == 0 || is_atomic(t)) {
      for (uint32_t r = start.row; r <= end.row; ++r) code_lines.insert(r);
      const std::string token(ts::text(n, src));
      if (token.empty()) return;  // a MISSING node of a repaired parse
      if (is_operand(n)) {
        operands.insert(token);
        ++operands_total;
      } else if (token != ")" && token != "]" && token != "}") {  // a bracket pair is one operator
        operators.insert(token);
        ++operators_total;
      }
      return;
    }
    const uint32_t k = ts::count(n);
    for (uint32_t i = 0; i < k; ++i) walk(ts::child(n, i), depth + 1);
  }

  void fill(CodeMetrics& m) const {
    m.cyclomatic = 1 + decisions;
    m.operators_distinct = static_cast<int64_t>(operators.size());
    m.operands_distinct = static_cast<int64_t>(operands.size());
    m.operators_total = operators_total;
    m.operands_total = operands_total;
    m.sloc = static_cast<int64_t>(code_lines.size());
    m.lloc = lloc;
    m.comment_lines = static_cast<int64_t>(comment_lines.size());
    finish(m, m.sloc > 0 ? static_cast<double>(m.comment_lines) / static_cast<double>(m.sloc) * 100.0 : 0.0);
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

void definitions(TSNode n, std::vector<TSNode>& out, int depth) {
  if (depth > 400) return;
  if (is(n, "function_definition")) out.push_back(n);
  const uint32_t k = ts::count(n);
  for (uint32_t i = 0; i < k; ++i) definitions(ts::child(n, i), out, depth + 1);
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

  std::vector<TSNode> defs;
  definitions(root, defs, 0);
  for (TSNode def : defs) {
    const TSNode name = name_of(def);
    if (ts_node_is_null(name)) continue;
    const Span at = cuda::host_span(host, mod, ts_node_start_byte(name), ts_node_end_byte(name));
    auto it = by_position.find({at.line, at.col});
    if (it == by_position.end()) continue;
    Counter c{text};
    c.walk(def);
    c.fill(facts.functions[it->second].metrics);
  }
  Counter whole{text};
  whole.walk(root);
  whole.fill(facts.modules[module].metrics);
}

}  // namespace

void measure_cpp(const SourceFile& host, FactSet& facts) {
  const Positions by_position = cpp_functions_by_position(facts);
  for (size_t m = 0; m < facts.modules.size(); ++m)
    if (is_cpp(facts.modules[m].language)) measure_module(host, facts, static_cast<int>(m), by_position);
}

}  // namespace kgate::metrics
