// Extractor, pass 2: the tests a branch guard reads (constant, shape, value statistics, impossible shapes,
// `__main__`) and the guard a branch gets.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <string>

#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

bool Extractor::mentions(TSNode node, std::initializer_list<std::string_view> words) const {
  std::string_view t = ts::text(node, src_);
  for (auto w : words)
    if (t.find(w) != std::string_view::npos) return true;
  return false;
}

bool Extractor::shape_test(TSNode cond) const {
  return mentions(cond, {".shape", ".size(", ".numel(", ".dim(", ".ndim", ".is_cuda", ".device", ".dtype",
                         ".is_contiguous(", "len("});
}

// A test of what a tensor's values are (x.abs().amax() < 0.5, torch.isfinite(x).all()), written in
// the condition, in the one value a local name in it was bound to (`fast = x.amax() < t; if fast:`),
// or in what a function of this file it calls returns (`if _small(x):`).
bool Extractor::value_statistic_test(TSNode cond, int scope) {
  const auto statistic = [this](TSNode n) {
    return mentions(n, {".amax(", ".amin(", ".max(", ".min(", ".aminmax(", ".isfinite(", ".isnan(", ".isinf(", ".norm(",
                        ".std(", ".var("});
  };
  if (statistic(cond)) return true;
  if (ts::is(cond, "not_operator")) cond = ts::field(cond, "argument");
  if (ts::is(cond, "parenthesized_expression")) cond = ts::named_child(cond, 0);
  if (ts::is(cond, "identifier")) {
    Found f = find_name(std::string(ts::text(cond, src_)), scope);
    return f.k == Found::K::Binding && f.bindings && f.bindings->size() == 1 &&
           !ts_node_is_null(f.bindings->front().expr) && statistic(f.bindings->front().expr);
  }
  if (ts::is(cond, "call")) {
    Value callee = eval(ts::field(cond, "function"), scope);
    if (callee.k != Value::K::Function) return false;
    auto it = return_exprs_.find(callee.index);
    return it != return_exprs_.end() && std::any_of(it->second.begin(), it->second.end(), [&](const Binding& b) {
             return !ts_node_is_null(b.expr) && statistic(b.expr);
           });
  }
  return false;
}

bool Extractor::impossible_shape(TSNode cond) {
  if (!ts::is(cond, "comparison_operator") || ts::named_count(cond) != 2) {
    if (ts::is(cond, "parenthesized_expression")) return impossible_shape(ts::named_child(cond, 0));
    if (ts::is(cond, "boolean_operator") && ts::text(ts::field(cond, "operator"), src_) == "and")
      return impossible_shape(ts::field(cond, "left")) || impossible_shape(ts::field(cond, "right"));
    return false;
  }
  TSNode l = ts::named_child(cond, 0), r = ts::named_child(cond, 1);
  std::string_view op;
  for (uint32_t i = 0; i < ts::count(cond); ++i) {
    TSNode c = ts::child(cond, i);
    if (!ts_node_is_named(c)) op = ts::text(c, src_);
  }
  // A plain size read (x.shape[0], x.numel(), x.dim()), not arithmetic on one (x.dim() - 8).
  auto sizeish = [&](TSNode n) {
    std::string_view t = ts::type(n);
    return (t == "subscript" || t == "call" || t == "attribute") && shape_test(n);
  };
  auto rv = folder_.fold_int(r);
  auto lv = folder_.fold_int(l);
  if (sizeish(l) && rv) {
    if ((op == "==" || op == "<=") && *rv < 0) return true;
    if (op == "<" && *rv <= 0) return true;
  }
  if (sizeish(r) && lv) {
    if ((op == "==" || op == ">=") && *lv < 0) return true;
    if (op == ">" && *lv <= 0) return true;
  }
  return false;
}

// Guard for the branch taken when `cond` is (when_true) true or false.
Guard Extractor::branch_guard(const Guard& outer, TSNode cond, bool when_true, int scope) {
  Guard g = outer;
  int saved = current_scope_;
  current_scope_ = scope;
  Truth t = folder_.fold_truth(cond);
  current_scope_ = saved;
  if ((t == Truth::False && when_true) || (t == Truth::True && !when_true)) g.constant_false = true;
  if (mentions(cond, {".training"})) g.training = true;
  if (shape_test(cond)) g.shape_test = true;
  if (value_statistic_test(cond, scope)) g.value_statistic = true;
  if (when_true && impossible_shape(cond)) g.impossible_shape = true;
  if (when_true && script_main_test(cond)) g.script_main = true;
  return g;
}

// `__name__ == "__main__"` (either side): the block runs when the file is a script, never when a
// harness imports or execs it.
bool Extractor::script_main_test(TSNode cond) const {
  if (!ts::is(cond, "comparison_operator") || ts::named_count(cond) != 2) return false;
  const std::string_view a = ts::text(ts::named_child(cond, 0), src_), b = ts::text(ts::named_child(cond, 1), src_);
  auto is_main = [](std::string_view t) { return t == "\"__main__\"" || t == "'__main__'"; };
  return (a == "__name__" && is_main(b)) || (b == "__name__" && is_main(a));
}

}  // namespace kgate::python::detail
