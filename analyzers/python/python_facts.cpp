// Python/Triton fact extraction: scopes and bindings (pass 1), facts with guards (pass 2),
// then reachability from ModelNew.forward and the per-return data flow.
#include "analyzers/python/python_facts.h"

#include <optional>
#include <string>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace kgate::python {
namespace detail {

void Extractor::run(TSNode root) {
  root_ = root;
  scopes_.push_back(Scope{});  // module scope
  collect(root, 0, -1);
  classify_functions();
  choose_harness();
  find_entries();
  note_entry_class_wrappers();
  note_entry_function_bindings();
  Guard none;
  walk(root, 0, none);
  finish_containers();  // every list fill and helper call is known now
  finish_computed_callees();
  finish_helper_operators();  // every call site of a helper is known now
  link_extension_calls_by_name();
  finish_graphs();        // before reachability: a refreshed replay calls what its captures recorded
  finish_dot_defaults();  // before reachability: it adds casts
  compute_reachability();
  finish_graph_launches();
  finish_returns();
  mark_triton_kernels_without_stores();
  finish_handlers();
  finish_globals();
  decide_format();
  mark_harness_imports();
  finish_outputs();
  finish_inputs();
  finish_param_writes();
  finish_launch_arguments();
}

}  // namespace detail

namespace {

// Depth of the syntax tree, walked iteratively so that hostile nesting cannot overflow the stack.
uint32_t tree_depth(TSNode root, uint32_t stop_at) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  uint32_t depth = 0, max_depth = 0;
  for (;;) {
    if (depth > max_depth) max_depth = depth;
    if (max_depth > stop_at) break;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
      continue;
    }
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        moved = true;
      } else if (ts_tree_cursor_goto_parent(&cursor)) {
        --depth;
      } else {
        ts_tree_cursor_delete(&cursor);
        return max_depth;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return max_depth;
}

// The first ERROR or MISSING node, found iteratively.
std::optional<TSNode> first_error(TSNode root) {
  if (!ts_node_has_error(root)) return std::nullopt;
  TSNode node = root;
  for (;;) {
    if (ts_node_is_error(node) || ts_node_is_missing(node)) return node;
    uint32_t n = ts::count(node);
    bool descended = false;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts::child(node, i);
      if (ts_node_has_error(c) || ts_node_is_missing(c)) {
        node = c;
        descended = true;
        break;
      }
    }
    if (!descended) return node;
  }
}

}  // namespace

ts::TreePtr extract_facts(const SourceFile& file, const ingest::Limits& limits, FactSet& facts,
                          std::vector<Diagnostic>& diagnostics, const HarnessChoice& harness,
                          const std::vector<SiblingModule>& siblings) {
  Module host;
  host.language = Language::Python;
  host.role = "host";
  facts.modules.push_back(std::move(host));
  facts.engine = "tree-sitter-python";

  // One parser per thread, reused: creating one allocates its stacks and lexer every time.
  thread_local ts::ParserPtr parser = [] {
    ts::ParserPtr p(ts_parser_new());
    ts_parser_set_language(p.get(), tree_sitter_python());
    return p;
  }();
  ts_parser_reset(parser.get());
  ts::TreePtr tree(ts::parse_within_budget(parser.get(), file.text));
  if (!tree && budget_exhausted()) return nullptr;  // the pipeline reports the limit that was hit
  if (!tree) {
    Diagnostic d;
    d.rule = "input-parse-error";
    d.message = "the Python parser produced no syntax tree";
    d.path = file.path;
    d.span = Span{1, 1, 1, 1};
    d.engine = "tree-sitter-python";
    diagnostics.push_back(d);
    return nullptr;
  }
  TSNode root = ts_tree_root_node(tree.get());
  uint32_t depth = tree_depth(root, limits.max_nesting);
  if (depth > limits.max_nesting) {
    Diagnostic d;
    d.rule = "input-too-deep";
    d.message = "syntax nested deeper than " + std::to_string(limits.max_nesting) +
                " levels; the file is not analysed (raise --max-nesting to analyse it)";
    d.path = file.path;
    d.span = Span{1, 1, 1, 1};
    d.engine = "tree-sitter-python";
    diagnostics.push_back(d);
    return nullptr;
  }
  if (auto err = first_error(root)) {
    Diagnostic d;
    d.rule = "input-parse-error";
    d.message = ts_node_is_missing(*err) ? "Python syntax error: missing " + std::string(ts_node_type(*err))
                                         : "Python syntax error; facts come from the parts that parsed";
    d.path = file.path;
    d.span = ts::span(*err);
    d.engine = "tree-sitter-python";
    diagnostics.push_back(d);
  }
  if (budget_exhausted()) return nullptr;
  detail::Extractor(file, limits, facts, diagnostics, harness, siblings).run(root);
  return tree;
}

}  // namespace kgate::python
