// Thin helpers over tree-sitter's C API for walking Python syntax trees.
#pragma once

#include <tree_sitter/api.h>

#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "analyzers/core/budget.h"
#include "analyzers/core/diagnostic.h"

namespace kgate::ts {

struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};
struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;
using ParserPtr = std::unique_ptr<TSParser, ParserDeleter>;

inline bool is(TSNode node, const char* type) {
  return !ts_node_is_null(node) && std::strcmp(ts_node_type(node), type) == 0;
}
inline std::string_view type(TSNode node) { return ts_node_is_null(node) ? std::string_view{} : ts_node_type(node); }
// Field names resolve to ids once per (language, literal): ts_node_child_by_field_name searches the
// language's field-name table on every call, which showed in profiles.
inline TSFieldId field_id(const TSLanguage* language, const char* name) {
  struct Entry {
    const TSLanguage* language;
    const char* name;
    TSFieldId id;
  };
  thread_local std::vector<Entry> cache;
  for (const Entry& e : cache)
    if (e.name == name && e.language == language) return e.id;
  TSFieldId id = ts_language_field_id_for_name(language, name, static_cast<uint32_t>(std::strlen(name)));
  cache.push_back(Entry{language, name, id});
  return id;
}
inline TSNode field(TSNode node, const char* name) {
  if (ts_node_is_null(node)) return TSNode{};
  TSFieldId id = field_id(ts_node_language(node), name);
  return id ? ts_node_child_by_field_id(node, id) : TSNode{};
}
inline std::string_view text(TSNode node, std::string_view source) {
  if (ts_node_is_null(node)) return {};
  uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
  if (b > source.size() || e > source.size() || e < b) return {};
  return source.substr(b, e - b);
}
inline Span span(TSNode node) {
  if (ts_node_is_null(node)) return Span{1, 1, 1, 1};
  TSPoint s = ts_node_start_point(node), e = ts_node_end_point(node);
  return Span{s.row + 1, s.column + 1, e.row + 1, e.column + 1};
}
// Child access that tolerates null nodes (an absent optional field), which the C API does not.
inline uint32_t named_count(TSNode node) { return ts_node_is_null(node) ? 0 : ts_node_named_child_count(node); }
inline TSNode named_child(TSNode node, uint32_t i) {
  return ts_node_is_null(node) ? TSNode{} : ts_node_named_child(node, i);
}
inline uint32_t count(TSNode node) { return ts_node_is_null(node) ? 0 : ts_node_child_count(node); }
inline TSNode child(TSNode node, uint32_t i) { return ts_node_is_null(node) ? TSNode{} : ts_node_child(node, i); }
inline TSNode parent(TSNode node) { return ts_node_is_null(node) ? TSNode{} : ts_node_parent(node); }

// The named children of a node, in order, through a cursor: ts_node_named_child(i) walks from the
// first child every time, which makes loops over long blocks quadratic.
inline std::vector<TSNode> named_children(TSNode node) {
  std::vector<TSNode> out;
  if (ts_node_is_null(node)) return out;
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode c = ts_tree_cursor_current_node(&cursor);
      if (ts_node_is_named(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

// Visits `root` and every node below it in pre-order, iteratively (hostile nesting cannot overflow the
// stack); `visit(node)` returns false to stop the walk.
template <typename Visit>
void preorder(TSNode root, Visit&& visit) {
  if (ts_node_is_null(root)) return;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    if (!visit(ts_tree_cursor_current_node(&cursor))) break;
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (more && !ts_tree_cursor_goto_next_sibling(&cursor)) more = ts_tree_cursor_goto_parent(&cursor);
  }
  ts_tree_cursor_delete(&cursor);
}

// Parses text, giving up (nullptr) once the thread's FileBudget is spent: tree-sitter calls back
// every few hundred parse steps, so a deadline or memory limit stops a slow parse in time. A parser
// that gave up must be reset (ts_parser_reset) before its next parse.
inline TSTree* parse_within_budget(TSParser* parser, std::string_view text) {
  TSInput input{};
  struct Text {
    std::string_view text;
  } payload{text};
  input.payload = &payload;
  input.read = [](void* p, uint32_t byte, TSPoint, uint32_t* read) -> const char* {
    const std::string_view t = static_cast<Text*>(p)->text;
    if (byte >= t.size()) {
      *read = 0;
      return "";
    }
    *read = static_cast<uint32_t>(t.size() - byte);
    return t.data() + byte;
  };
  input.encoding = TSInputEncodingUTF8;
  TSParseOptions options{};
  options.progress_callback = [](TSParseState*) { return budget_exhausted(); };
  return ts_parser_parse_with_options(parser, nullptr, input, options);
}

// Same node, for maps keyed on nodes.
inline uint64_t key(TSNode node) {
  return (static_cast<uint64_t>(ts_node_start_byte(node)) << 32) ^ ts_node_end_byte(node) ^
         (static_cast<uint64_t>(ts_node_symbol(node)) << 48);
}

}  // namespace kgate::ts
