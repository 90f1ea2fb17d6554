// Extractor, bindings: which binding of a name reaches a use. A binding that runs whenever the use does
// (straight-line code, an if/else that binds in every branch, or a for loop's body when the loop is not
// provably empty) kills the ones before it; a loop around the use that binds again after it lets every
// binding reach.
#include <optional>
#include <string>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

Value Extractor::eval_binding(const std::vector<Binding>& bindings, int depth, TSNode use) {
  if (bindings.empty()) return Value{Value::K::Tensor};
  const Binding& b = ts_node_is_null(use) ? bindings.back() : reaching_binding(bindings, use);
  if (ts_node_is_null(b.expr)) {
    // A for target over kernels (`for k in (relu_kernel, add_kernel): k[grid](...)`): a kernel; the
    // launch adds edges to the others (record_call).
    if (!ts_node_is_null(b.iterated))
      if (std::vector<Value> ks = iterated_kernels(b.iterated, b.scope, depth + 1); !ks.empty()) return ks.front();
    // `with Ctx() as f:` for a class of the file: what its __enter__ returns, where the gate can name it.
    if (!ts_node_is_null(b.entered) && depth <= kMaxEvalDepth) {
      const Value ctx = eval(b.entered, b.scope, depth + 1);
      if (ctx.k == Value::K::Instance && ctx.index >= 0)
        if (const Value enter = class_member(ctx.index, "__enter__", depth + 1, ReceiverKind::Value);
            enter.k == Value::K::Function)
          if (std::optional<Value> got = returned_callable(enter.index, depth + 1)) return *got;
    }
    return Value{Value::K::Tensor};
  }
  int saved = current_scope_;
  current_scope_ = b.scope;
  Value v = eval(b.expr, b.scope, depth + 1);
  current_scope_ = saved;
  if (v.k == Value::K::Unknown) v.k = Value::K::Tensor;
  return v;
}

// Where a binding is written: its value, the `x += v` statement, or the right side it was unpacked
// from; null for one with none (a for target).
static TSNode binding_node(const Binding& b) {
  if (!ts_node_is_null(b.expr)) return b.expr;
  return !ts_node_is_null(b.augmented) ? b.augmented : b.unpacked;
}

// A loop around `use` that binds the name again after it: the next iteration sees that binding.
static bool loop_rebinds_after(const std::vector<Binding>& bindings, TSNode use) {
  const uint32_t at = ts_node_start_byte(use);
  for (TSNode p = ts::parent(use); !ts_node_is_null(p); p = ts::parent(p)) {
    if (ts::is(p, "function_definition") || ts::is(p, "lambda") || ts::is(p, "class_definition")) break;
    if (!ts::is(p, "for_statement") && !ts::is(p, "while_statement")) continue;
    for (const Binding& b : bindings) {
      const TSNode n = binding_node(b);
      if (ts_node_start_byte(n) > at && ts_node_end_byte(n) <= ts_node_end_byte(p)) return true;
    }
  }
  return false;
}

static bool holds(TSNode outer, uint32_t at) { return ts_node_start_byte(outer) <= at && at < ts_node_end_byte(outer); }

// The `if` statement a branch block belongs to (its body, an `elif`'s or the `else`'s), or null.
static TSNode branch_owner(TSNode block) {
  const TSNode p = ts::parent(block);
  if (ts_node_is_null(p) || !ts::is(block, "block")) return TSNode{};
  if (ts::is(p, "if_statement")) return p;
  if (ts::is(p, "elif_clause") || ts::is(p, "else_clause")) {
    const TSNode owner = ts::parent(p);
    if (!ts_node_is_null(owner) && ts::is(owner, "if_statement")) return owner;
  }
  return TSNode{};
}

// A break or continue of the loop whose body is `node` (not of a loop or function nested in it) that
// starts before `at`.
static bool exits_before(TSNode node, uint32_t at) {
  for (TSNode child : ts::named_children(node)) {
    if (ts_node_start_byte(child) >= at) break;
    const std::string_view t = ts::type(child);
    if (t == "break_statement" || t == "continue_statement") return true;
    if (t == "for_statement" || t == "while_statement" || t == "function_definition" || t == "lambda" ||
        t == "class_definition")
      continue;
    if (exits_before(child, at)) return true;
  }
  return false;
}

bool Extractor::loop_body_runs(TSNode loop, TSNode n) const {
  const TSNode body = ts::field(loop, "body");
  if (ts_node_is_null(body) || exits_before(body, ts_node_start_byte(n))) return false;
  TSNode it = ts::field(loop, "right");
  while (ts::is(it, "parenthesized_expression")) it = ts::named_child(it, 0);
  const std::string_view t = ts::type(it);
  if ((t == "list" || t == "tuple" || t == "set" || t == "dictionary") && ts::named_count(it) == 0) return false;
  if (t == "call" && ts::text(ts::field(it, "function"), src_) == "range") {
    std::vector<TSNode> bounds;
    for (TSNode a : ts::named_children(ts::field(it, "arguments")))
      if (!ts::is(a, "comment")) bounds.push_back(a);
    if (bounds.size() == 1) {
      if (auto stop = folder_.fold_int(bounds[0]); stop && *stop <= 0) return false;
    } else if (bounds.size() == 2) {
      auto start = folder_.fold_int(bounds[0]);
      auto stop = folder_.fold_int(bounds[1]);
      if (start && stop && *start >= *stop) return false;
    }
  }
  return true;
}

bool Extractor::runs_through(const std::vector<Binding>& bindings, TSNode n, TSNode stop, uint32_t use,
                             TSNode* anchor) const {
  TSNode from = n;
  if (anchor) *anchor = n;
  for (TSNode at = ts::parent(n); !ts_node_is_null(at); from = at, at = ts::parent(at)) {
    if (ts_node_is_null(stop) ? holds(at, use) : ts_node_eq(at, stop)) return true;
    const std::string_view t = ts::type(at);
    if (t == "assignment" || t == "augmented_assignment" || t == "expression_statement" || t == "block" ||
        t == "with_statement" || t == "parenthesized_expression" || t == "expression_list" || t == "tuple" ||
        t == "list" || t == "named_expression")
      continue;
    if (t == "for_statement") {
      if (ts_node_eq(from, ts::field(at, "right"))) continue;  // the iterable is evaluated once
      if (ts_node_eq(from, ts::field(at, "body")) && loop_body_runs(at, n)) continue;
      return false;
    }
    // An `if` runs through when the step came from its condition, or when every branch (an `else`
    // included) binds the name on its own straight path before the use.
    if (t != "if_statement" && t != "elif_clause" && t != "else_clause") return false;
    const TSNode owner = branch_owner(from);
    if (ts_node_is_null(owner)) {
      if (t == "if_statement") continue;  // from the condition
      return false;
    }
    std::vector<TSNode> branches{ts::field(owner, "consequence")};
    bool has_else = false;
    for (TSNode clause : ts::named_children(owner)) {
      if (ts::is(clause, "elif_clause")) branches.push_back(ts::field(clause, "consequence"));
      if (ts::is(clause, "else_clause")) {
        branches.push_back(ts::field(clause, "body"));
        has_else = true;
      }
    }
    if (!has_else) return false;
    for (TSNode branch : branches) {
      bool binds = false;
      for (const Binding& b : bindings) {
        const TSNode bn = binding_node(b);
        if (ts_node_is_null(bn) || ts_node_end_byte(bn) > use || ts_node_is_null(branch) ||
            !holds(branch, ts_node_start_byte(bn)))
          continue;
        if (runs_through(bindings, bn, branch, use)) {
          binds = true;
          break;
        }
      }
      if (!binds) return false;
    }
    at = owner;
    if (anchor) *anchor = owner;
  }
  return false;
}

Extractor::Reaching Extractor::reaching_at(const std::vector<Binding>& bindings, uint32_t at) const {
  Reaching r;
  uint32_t from = 0;
  for (const Binding& b : bindings) {
    const TSNode n = binding_node(b);
    if (ts_node_is_null(n) || ts_node_end_byte(n) > at) continue;
    // A binding in a sibling branch of an `if` around the use never reaches it.
    TSNode common = ts::parent(n);
    while (!ts_node_is_null(common) && !holds(common, at)) common = ts::parent(common);
    if (!ts_node_is_null(common) && ts::is(common, "if_statement") && !holds(ts::field(common, "condition"), at) &&
        !holds(ts::field(common, "condition"), ts_node_start_byte(n)))
      continue;
    r.before.push_back(&b);
    TSNode anchor{};
    if ((!r.kill || ts_node_start_byte(n) > ts_node_start_byte(binding_node(*r.kill))) &&
        runs_through(bindings, n, TSNode{}, at, &anchor)) {
      r.kill = &b;
      from = ts_node_start_byte(anchor);
    }
  }
  // From the kill on; an if/else that binds in every branch kills from its start, each branch's reaching.
  if (r.kill) std::erase_if(r.before, [&](const Binding* b) { return ts_node_start_byte(binding_node(*b)) < from; });
  return r;
}

std::vector<const Binding*> Extractor::reaching_bindings(const std::vector<Binding>& bindings, TSNode use) const {
  std::vector<const Binding*> all;
  for (const Binding& b : bindings) all.push_back(&b);
  if (ts_node_is_null(use) || bindings.empty()) return all;
  for (const Binding& b : bindings)
    if (ts_node_is_null(binding_node(b))) return all;
  if (loop_rebinds_after(bindings, use)) return all;
  Reaching r = reaching_at(bindings, ts_node_start_byte(use));
  return r.before.empty() ? all : r.before;
}

// The binding whose value a use reads: the last one written before it, or the last one of all (a loop
// around the use binds it again after it, a binding has no position, or none precedes it).
const Binding& Extractor::reaching_binding(const std::vector<Binding>& bindings, TSNode use) const {
  const uint32_t at = ts_node_start_byte(use);
  const Binding* last = nullptr;
  for (const Binding& b : bindings) {
    const TSNode n = binding_node(b);
    if (ts_node_is_null(n)) return bindings.back();
    if (ts_node_end_byte(n) <= at) last = &b;
  }
  if (!last || loop_rebinds_after(bindings, use)) return bindings.back();
  return *last;
}

}  // namespace kgate::python::detail
