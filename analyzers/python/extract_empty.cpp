// Extractor: empty-input early returns. `if x.numel() == 0: return x.clone()` hands back an empty
// tensor, and only when the input is empty: no harness input is, and an empty result can never pass a
// check of a non-empty output. Such a return is no "returns its input" and no "returns an unwritten
// allocation", and a helper's summary of what it returns leaves it out.
//
// The property is about the returned value, not the test: the tensor returned must be the one the
// tests around the return found empty (or a view, clone or *_like allocation of it), and that name
// must not be rebound between the size read and the return. So a caller that passes an empty slice on
// purpose gets an empty result back, and a test on one tensor cannot excuse returning another.
#include <algorithm>
#include <string>
#include <unordered_set>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {
namespace {

// Methods whose result has the receiver's element count (so an empty receiver gives an empty result).
// Not as_strided: on a slice it reaches the whole storage again.
const std::unordered_set<std::string>& count_keeping_methods() {
  static const std::unordered_set<std::string> m = {
      "view",      "view_as", "reshape",  "reshape_as", "contiguous", "clone",   "detach",  "to",        "float",
      "double",    "half",    "bfloat16", "type",       "type_as",    "flatten", "squeeze", "unsqueeze", "permute",
      "transpose", "t",       "cuda",     "cpu",        "unflatten",  "movedim", "zero_",   "fill_",     "neg"};
  return m;
}

bool like_allocation(const std::string& path) {
  return path == "torch.empty_like" || path == "torch.zeros_like" || path == "torch.ones_like" ||
         path == "torch.full_like";
}

std::vector<EmptyTensor> intersect(const std::vector<EmptyTensor>& a, const std::vector<EmptyTensor>& b) {
  std::vector<EmptyTensor> out;
  for (const auto& e : a)
    for (const auto& o : b)
      if (e.name == o.name) out.push_back({e.name, std::min(e.since, o.since)});
  return out;
}

}  // namespace

bool Extractor::returns_empty(TSNode ret, int scope) {
  TSNode value = ts::named_child(ret, 0);
  if (ts_node_is_null(value)) return false;
  const int saved = current_scope_;
  current_scope_ = scope;  // the constant folder reads names in this scope
  const std::vector<EmptyTensor> empty = empty_on_path(ret, scope);
  const bool result = !empty.empty() && empty_value(value, empty, ts_node_start_byte(ret), scope, 0);
  current_scope_ = saved;
  return result;
}

// The tensors that the if/elif/else tests around `node`, up to its function, prove empty when it runs.
std::vector<EmptyTensor> Extractor::empty_on_path(TSNode node, int scope) {
  std::vector<EmptyTensor> out;
  auto add = [&](std::vector<EmptyTensor> more) { out.insert(out.end(), more.begin(), more.end()); };
  for (TSNode child = node, p = ts::parent(node); !ts_node_is_null(p); child = p, p = ts::parent(p)) {
    const std::string_view t = ts::type(p);
    if (t == "function_definition" || t == "lambda" || t == "class_definition") break;
    if (t == "if_statement" && ts_node_eq(ts::field(p, "consequence"), child)) {
      add(emptiness(ts::field(p, "condition"), true, scope));
      continue;
    }
    const bool elif = t == "elif_clause" && ts_node_eq(ts::field(p, "consequence"), child);
    const bool els = t == "else_clause";
    TSNode ifs = ts::parent(p);
    if ((!elif && !els) || !ts::is(ifs, "if_statement")) continue;
    // Every earlier test of the chain was false; an elif's own test was true.
    add(emptiness(ts::field(ifs, "condition"), false, scope));
    for (TSNode alt : ts::named_children(ifs)) {
      if (ts_node_eq(alt, p)) break;
      if (ts::is(alt, "elif_clause")) add(emptiness(ts::field(alt, "condition"), false, scope));
    }
    if (elif) add(emptiness(ts::field(p, "condition"), true, scope));
  }
  return out;
}

// The tensors that `cond` proves empty when it is (when_true) true or false: `x.numel() == 0`,
// `n < 1` with n = x.numel(), `not x.shape[0]`, `0 in x.shape`, and the false side of `x.numel() > 0`,
// through not, and, or and parentheses.
std::vector<EmptyTensor> Extractor::emptiness(TSNode cond, bool when_true, int scope) {
  if (ts_node_is_null(cond)) return {};
  const std::string_view t = ts::type(cond);
  if (t == "parenthesized_expression") return emptiness(ts::named_child(cond, 0), when_true, scope);
  if (t == "not_operator") return emptiness(ts::field(cond, "argument"), !when_true, scope);
  if (t == "boolean_operator") {
    const bool is_and = ts::text(ts::field(cond, "operator"), src_) == "and";
    auto l = emptiness(ts::field(cond, "left"), when_true, scope);
    auto r = emptiness(ts::field(cond, "right"), when_true, scope);
    // Both sides hold (a true `and`, a false `or`): either side's tensors; one side of two: those of both.
    if (is_and == when_true) {
      l.insert(l.end(), r.begin(), r.end());
      return l;
    }
    return intersect(l, r);
  }
  if (t == "comparison_operator" && ts::named_count(cond) == 2) {
    TSNode l = ts::named_child(cond, 0), r = ts::named_child(cond, 1);
    std::string op;
    for (uint32_t i = 0; i < ts::count(cond); ++i)
      if (TSNode c = ts::child(cond, i); !ts_node_is_named(c))
        op += op.empty() ? std::string(ts::text(c, src_)) : " " + std::string(ts::text(c, src_));
    if (op == "in" || op == "not in") {  // 0 in x.shape
      TSNode dims = r;
      if (ts::is(dims, "call") && ts::named_count(ts::field(dims, "arguments")) == 0)
        dims = ts::field(dims, "function");
      const bool shape = ts::is(dims, "attribute") && ts::is(ts::field(dims, "object"), "identifier") &&
                         (ts::text(ts::field(dims, "attribute"), src_) == "shape" ||
                          (ts::text(ts::field(dims, "attribute"), src_) == "size" && !ts_node_eq(dims, r)));
      if (!shape || ts::text(l, src_) != "0" || (op == "in") != when_true) return {};
      return {{std::string(ts::text(ts::field(dims, "object"), src_)), ts_node_start_byte(cond)}};
    }
    std::optional<EmptyTensor> size = size_of(l, scope, 0);
    std::optional<int64_t> k = folder_.fold_int(r);
    if (!size || !k) {  // 0 == n: the constant on the left, the operator mirrored
      size = size_of(r, scope, 0);
      k = folder_.fold_int(l);
      if (op == "<")
        op = ">";
      else if (op == ">")
        op = "<";
      else if (op == "<=")
        op = ">=";
      else if (op == ">=")
        op = "<=";
    }
    if (!size || !k) return {};
    // A size is never negative: size op k holds only for zero (empty) or only for non-zero.
    const bool zero_only = (op == "==" && *k == 0) || (op == "<" && *k == 1) || (op == "<=" && *k == 0);
    const bool nonzero_only = (op == "!=" && *k == 0) || (op == ">" && *k == 0) || (op == ">=" && *k == 1);
    if ((zero_only && when_true) || (nonzero_only && !when_true)) return {*size};
    return {};
  }
  // A bare size is true when it is not zero.
  if (auto size = size_of(cond, scope, 0); size && !when_true) return {*size};
  return {};
}

// The tensor whose element count (or one of whose dimensions) `n` is: x.numel(), x.nelement(),
// x.size(d), x.shape[d], x.size()[d], len(x), or a name bound once to one of these or unpacked from
// x.shape.
std::optional<EmptyTensor> Extractor::size_of(TSNode n, int scope, int depth) {
  if (ts_node_is_null(n) || depth > 3) return std::nullopt;
  const auto tensor = [&](TSNode obj) -> std::optional<EmptyTensor> {
    if (!ts::is(obj, "identifier")) return std::nullopt;
    return EmptyTensor{std::string(ts::text(obj, src_)), ts_node_start_byte(obj)};
  };
  const auto shape_of = [&](TSNode e) -> std::optional<EmptyTensor> {  // x.shape, x.size()
    if (ts::is(e, "call") && ts::named_count(ts::field(e, "arguments")) == 0) {
      TSNode fn = ts::field(e, "function");
      if (ts::is(fn, "attribute") && ts::text(ts::field(fn, "attribute"), src_) == "size")
        return tensor(ts::field(fn, "object"));
    }
    if (ts::is(e, "attribute") && ts::text(ts::field(e, "attribute"), src_) == "shape")
      return tensor(ts::field(e, "object"));
    return std::nullopt;
  };
  if (ts::is(n, "parenthesized_expression")) return size_of(ts::named_child(n, 0), scope, depth + 1);
  if (ts::is(n, "subscript")) return shape_of(ts::field(n, "value"));
  if (ts::is(n, "call")) {
    TSNode fn = ts::field(n, "function"), args = ts::field(n, "arguments");
    if (ts::is(fn, "identifier") && ts::text(fn, src_) == "len" && ts::named_count(args) == 1 &&
        find_name("len", scope).k == Found::K::Builtin)
      return tensor(ts::named_child(args, 0));
    if (!ts::is(fn, "attribute")) return std::nullopt;
    const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
    if ((method == "numel" || method == "nelement") && ts::named_count(args) == 0)
      return tensor(ts::field(fn, "object"));
    if (method == "size" && ts::named_count(args) == 1) return tensor(ts::field(fn, "object"));
    return std::nullopt;
  }
  if (ts::is(n, "identifier")) {
    Found f = find_name(std::string(ts::text(n, src_)), scope);
    if (f.k != Found::K::Binding || !f.bindings || f.bindings->size() != 1) return std::nullopt;
    const Binding& b = f.bindings->front();
    if (!ts_node_is_null(b.expr)) return size_of(b.expr, b.scope, depth + 1);
    if (!ts_node_is_null(b.unpacked)) return shape_of(b.unpacked);
  }
  return std::nullopt;
}

// `value` is empty when every tensor in `empty` is: one of them, a count-keeping method of one, a
// *_like allocation of one, or a name bound once (before `at`, the return) to such a value, with the
// tensor's name bound to the same object where its size was read and where it is used here.
bool Extractor::empty_value(TSNode value, const std::vector<EmptyTensor>& empty, uint32_t at, int scope, int depth) {
  if (ts_node_is_null(value) || depth > 4) return false;
  if (ts::is(value, "parenthesized_expression"))
    return empty_value(ts::named_child(value, 0), empty, at, scope, depth + 1);
  if (ts::is(value, "identifier")) {
    const std::string name(ts::text(value, src_));
    const uint32_t here = ts_node_start_byte(value);
    for (const EmptyTensor& e : empty)
      if (e.name == name && unchanged_between(name, std::min(e.since, here), std::max(e.since, here), scope))
        return true;
    Found f = find_name(name, scope);
    if (f.k == Found::K::Binding && f.bindings && f.bindings->size() == 1 &&
        !ts_node_is_null(f.bindings->front().expr) && ts_node_end_byte(f.bindings->front().expr) <= at)
      return empty_value(f.bindings->front().expr, empty, at, f.bindings->front().scope, depth + 1);
    return false;
  }
  if (!ts::is(value, "call")) return false;
  TSNode fn = ts::field(value, "function");
  if (ts::is(fn, "attribute") && count_keeping_methods().count(std::string(ts::text(ts::field(fn, "attribute"), src_))))
    return empty_value(ts::field(fn, "object"), empty, at, scope, depth + 1);
  if (!like_allocation(value_path(eval(fn, scope), fn))) return false;
  return empty_value(positional_arg(ts::field(value, "arguments"), 0), empty, at, scope, depth + 1);
}

// `name` (a parameter or a local) is bound to the same object at `to` as at `from` (where its size was
// read and where it is used, in either order): no binding of it lies between, and every binding of it
// has a place in the source (not a loop target).
bool Extractor::unchanged_between(const std::string& name, uint32_t from, uint32_t to, int scope) const {
  const Found f = find_name(name, scope);
  const std::vector<Binding>* bindings = f.bindings;
  if (f.k == Found::K::Param) {
    const auto it = scopes_[f.scope].bindings.find(name);
    bindings = it == scopes_[f.scope].bindings.end() ? nullptr : &it->second;
  } else if (f.k != Found::K::Binding) {
    return false;
  }
  if (!bindings) return true;
  for (const Binding& b : *bindings) {
    TSNode at = !ts_node_is_null(b.expr) ? b.expr : !ts_node_is_null(b.augmented) ? b.augmented : b.unpacked;
    if (ts_node_is_null(at)) return false;
    if (ts_node_start_byte(at) > from && ts_node_start_byte(at) < to) return false;
  }
  return true;
}

}  // namespace kgate::python::detail
