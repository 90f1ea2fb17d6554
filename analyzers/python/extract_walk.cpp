// Extractor, pass 2: the walk over the tree with branch guards, and the facts of assignments, names, strings, imports,
// classes and handlers.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "analyzers/python/ts_node.h"

namespace kgate::python::detail {

Diagnostic Extractor::input_diag(const std::string& rule, const std::string& message, Span span) {
  Diagnostic d;
  d.rule = rule;
  d.severity = Severity::Error;
  d.message = message;
  d.path = file_.path;
  d.span = span;
  d.engine = "tree-sitter-python";
  return d;
}

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

void Extractor::walk_block(TSNode block, int scope, const Guard& guard) {
  Guard g = guard;
  for (TSNode stmt : ts::named_children(block)) {
    walk(stmt, scope, g);
    std::string_view t = ts::type(stmt);
    if (t == "return_statement" || t == "raise_statement" || t == "continue_statement" || t == "break_statement")
      g.after_return = true;
  }
}

int Extractor::function_index_of(TSNode def) const {
  for (size_t i = 0; i < function_nodes_.size(); ++i)
    if (ts_node_eq(function_nodes_[i], def)) return static_cast<int>(i);
  return -1;
}

void Extractor::enter_function(TSNode def, int outer_scope, const Guard& outer) {
  int fi = function_index_of(def);
  if (fi < 0) return;
  // A nested def or lambda is reached when its parent is (it is defined there).
  edges_.push_back(Edge{scopes_[outer_scope].function, fi, edge_dead(outer), true});
  int saved = current_scope_;
  int scope = function_scope_[fi];
  current_scope_ = scope;
  Guard fresh;
  TSNode body = ts::field(def, "body");
  if (ts::is(body, "block"))
    walk_block(body, scope, fresh);
  else
    walk(body, scope, fresh);
  current_scope_ = saved;
}

void Extractor::walk(TSNode node, int scope, const Guard& guard) {
  if (ts_node_is_null(node)) return;
  std::string_view t = ts::type(node);
  current_scope_ = scope;
  if (t == "decorated_definition") {
    uint32_t n = ts::named_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts::named_child(node, i);
      if (ts::is(c, "decorator")) walk(c, scope, guard);
    }
    walk(ts::field(node, "definition"), scope, guard);
    return;
  }
  if (t == "function_definition" || t == "lambda") {
    if (t == "function_definition") {
      TSNode params = ts::field(node, "parameters");
      walk_children(params, scope, guard);  // defaults evaluate in the outer scope
    }
    enter_function(node, scope, guard);
    current_scope_ = scope;
    return;
  }
  if (t == "class_definition") {
    record_class(node, scope);
    walk_children(ts::field(node, "superclasses"), scope, guard);
    TSNode body = ts::field(node, "body");
    walk_block(body, scope, guard);
    return;
  }
  if (t == "block" || t == "module") {
    walk_block(node, scope, guard);
    return;
  }
  if (t == "if_statement") {
    TSNode cond = ts::field(node, "condition");
    walk(cond, scope, guard);
    walk(ts::field(node, "consequence"), scope, branch_guard(guard, cond, true, scope));
    Guard else_guard = branch_guard(guard, cond, false, scope);
    uint32_t n = ts::named_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode alt = ts::named_child(node, i);
      if (ts::is(alt, "elif_clause")) {
        TSNode c2 = ts::field(alt, "condition");
        walk(c2, scope, else_guard);
        walk(ts::field(alt, "consequence"), scope, branch_guard(else_guard, c2, true, scope));
        else_guard = branch_guard(else_guard, c2, false, scope);
      } else if (ts::is(alt, "else_clause")) {
        walk(ts::field(alt, "body"), scope, else_guard);
      }
    }
    return;
  }
  if (t == "conditional_expression" && ts::named_count(node) == 3) {
    TSNode a = ts::named_child(node, 0), cond = ts::named_child(node, 1), b = ts::named_child(node, 2);
    walk(cond, scope, guard);
    walk(a, scope, branch_guard(guard, cond, true, scope));
    walk(b, scope, branch_guard(guard, cond, false, scope));
    return;
  }
  if (t == "while_statement") {
    TSNode cond = ts::field(node, "condition");
    walk(cond, scope, guard);
    walk(ts::field(node, "body"), scope, branch_guard(guard, cond, true, scope));
    walk(ts::field(node, "alternative"), scope, guard);
    return;
  }
  if (t == "try_statement") {
    Guard in_try = guard;
    in_try.in_try = true;
    TSNode body = ts::field(node, "body");
    uint32_t try_begin = ts_node_start_byte(body), try_end = ts_node_end_byte(body);
    walk(body, scope, in_try);
    uint32_t n = ts::named_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts::named_child(node, i);
      if (ts::is(c, "except_clause") || ts::is(c, "except_group_clause")) {
        record_handler(c, scope, guard, try_begin, try_end);
        Guard in_except = guard;
        in_except.in_except = true;
        walk_children(c, scope, in_except);
      } else if (!ts_node_eq(c, body)) {
        walk(c, scope, guard);
      }
    }
    return;
  }
  if (t == "with_statement") {
    Guard body_guard = guard;
    TSNode clause = ts::named_child(node, 0);
    uint32_t n = ts::named_count(clause);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode item = ts::named_child(clause, i);
      TSNode value = ts::field(item, "value");
      if (ts::is(value, "as_pattern")) value = ts::named_child(value, 0);
      walk(value, scope, guard);
      if (ts::is(value, "call")) {
        Value callee = eval(ts::field(value, "function"), scope);
        std::string p = value_path(callee, value);
        if (p == "torch.cuda.stream" || p == "torch.cuda.StreamContext" || p == "torch.cuda.graph" ||
            p == "torch.cuda.Stream" || p == "torch.cuda.ExternalStream")
          body_guard.side_stream = true;
      }
    }
    walk(ts::field(node, "body"), scope, body_guard);
    return;
  }
  if (t == "import_statement" || t == "import_from_statement") {
    record_imports(node, scope);
    return;
  }
  if (t == "call") {
    record_call(node, scope, guard);
    TSNode fn = ts::field(node, "function");
    if (ts::is(fn, "attribute"))
      walk_chain_inside(ts::field(fn, "object"), scope, guard);
    else if (!ts::is(fn, "identifier"))
      walk(fn, scope, guard);  // a callee that is itself a call or subscript
    walk(ts::field(node, "arguments"), scope, guard);
    return;
  }
  if (t == "binary_operator") {
    record_binary_operator(node, scope, guard);
    walk_children(node, scope, guard);
    return;
  }
  if (t == "assignment" || t == "augmented_assignment") {
    record_assignment(node, scope, guard, t == "augmented_assignment");
    if (t == "augmented_assignment") record_augmented_operator(node, scope, guard);
    TSNode left = ts::field(node, "left");
    // Walk the value and the inner parts of the target (subscript keys, attribute objects).
    walk(ts::field(node, "right"), scope, guard);
    if (!ts::is(left, "identifier")) walk_target_parts(left, scope, guard);
    return;
  }
  if (t == "return_statement") {
    returns_.push_back(PendingReturn{node, scope, guard});
    walk_children(node, scope, guard);
    return;
  }
  if (t == "attribute") {
    record_name_ref(node, scope, guard);  // the outermost attribute of a chain read as a value
    walk_chain_inside(ts::field(node, "object"), scope, guard);
    return;
  }
  if (t == "identifier") {
    record_identifier_ref(node, scope, guard);
    return;
  }
  if (t == "keyword_argument") {
    walk(ts::field(node, "value"), scope, guard);  // the keyword's name is not a reference
    return;
  }
  if (t == "expression_statement" && ts::named_count(node) == 1 && ts::is(ts::named_child(node, 0), "string")) {
    walk_children(ts::named_child(node, 0), scope, guard);  // a docstring is not a path constant
    return;
  }
  if (t == "string") {
    record_string(node, scope);
    walk_children(node, scope, guard);
    return;
  }
  walk_children(node, scope, guard);
}

// The inner links of an attribute chain (the `a.b` of `a.b.c`, or a callee's object) are not reads of
// their own: walk what hangs off them (calls, subscripts, arguments) but record no name for them.
void Extractor::walk_chain_inside(TSNode node, int scope, const Guard& guard) {
  if (ts::is(node, "attribute")) {
    walk_chain_inside(ts::field(node, "object"), scope, guard);
  } else if (ts::is(node, "identifier")) {
    record_identifier_ref(node, scope, guard);
  } else {
    walk(node, scope, guard);
  }
}

void Extractor::walk_children(TSNode node, int scope, const Guard& guard) {
  if (ts_node_is_null(node)) return;
  for (TSNode child : ts::named_children(node)) walk(child, scope, guard);
}

void Extractor::walk_target_parts(TSNode target, int scope, const Guard& guard) {
  if (ts::is(target, "attribute")) {
    walk(ts::field(target, "object"), scope, guard);
  } else if (ts::is(target, "subscript")) {
    // `os.environ["K"] = v` stores into os.environ; it is not a read of it.
    TSNode value = ts::field(target, "value");
    walk(ts::is(value, "attribute") ? ts::field(value, "object") : value, scope, guard);
    walk(ts::field(target, "subscript"), scope, guard);
  } else {
    uint32_t n = ts::named_count(target);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts::named_child(target, i);
      if (!ts::is(c, "identifier")) walk_target_parts(c, scope, guard);
    }
  }
}

// Which kind of thing the leftmost name of an expression chain is.
ReceiverKind Extractor::root_kind(TSNode expr, int scope) {
  TSNode n = expr;
  for (int guard = 0; guard < 64; ++guard) {
    if (ts::is(n, "attribute"))
      n = ts::field(n, "object");
    else if (ts::is(n, "subscript"))
      n = ts::field(n, "value");
    else if (ts::is(n, "call"))
      n = ts::field(n, "function");
    else if (ts::is(n, "parenthesized_expression"))
      n = ts::named_child(n, 0);
    else
      break;
  }
  if (!ts::is(n, "identifier")) return ts::is(n, "string") ? ReceiverKind::Literal : ReceiverKind::Value;
  // `v = x.view(-1)`, `head = x[:4]`: a local bound once to a view of a parameter is that parameter's
  // memory, so an in-place write through it writes the parameter.
  if (ReceiverKind k = root_kind_depth(n, scope, 0); k == ReceiverKind::Param || k == ReceiverKind::Output) return k;
  Value v = eval(n, scope);
  switch (v.k) {
    case Value::K::Self:
      return ReceiverKind::Self;
    case Value::K::Param:
      return is_output_param(v.path, scope) ? ReceiverKind::Output : ReceiverKind::Param;
    case Value::K::Path:
      return ReceiverKind::Module;
    default:
      return v.receiver == ReceiverKind::Self ? ReceiverKind::Self : ReceiverKind::Value;
  }
}

// The tensor `expr` is a view of (x.view(..), x[..], x.t(), x.contiguous(), x.data, chained), or
// nothing when some step may copy.
std::optional<TSNode> Extractor::view_source(TSNode expr) const {
  static const std::unordered_set<std::string_view> kViewMethods = {
      "view",      "view_as", "reshape",   "reshape_as", "flatten",      "unflatten",      "t",
      "transpose", "permute", "movedim",   "swapaxes",   "narrow",       "select",         "unsqueeze",
      "squeeze",   "expand",  "expand_as", "as_strided", "detach",       "contiguous",     "diagonal",
      "unfold",    "float",   "to",        "type_as",    "view_as_real", "view_as_complex"};
  static const std::unordered_set<std::string_view> kViewAttributes = {"data", "T", "mT", "H", "mH", "real", "imag"};
  TSNode n = expr;
  bool stepped = false;
  for (int guard = 0; guard < 16; ++guard) {
    if (ts::is(n, "parenthesized_expression")) {
      n = ts::named_child(n, 0);
    } else if (ts::is(n, "subscript")) {
      // x[:4], x[..., 0] are views of a tensor; state["cache"] and state[3] may be container lookups.
      TSNode index = ts::field(n, "subscript");
      const std::string_view text = ts::text(index, src_);
      if (!ts::is(index, "slice") && text.find(':') == std::string_view::npos &&
          text.find("...") == std::string_view::npos)
        return std::nullopt;
      n = ts::field(n, "value");
      stepped = true;
    } else if (ts::is(n, "attribute") && kViewAttributes.count(ts::text(ts::field(n, "attribute"), src_))) {
      n = ts::field(n, "object");
      stepped = true;
    } else if (ts::is(n, "call") && ts::is(ts::field(n, "function"), "attribute") &&
               kViewMethods.count(ts::text(ts::field(ts::field(n, "function"), "attribute"), src_))) {
      n = ts::field(ts::field(n, "function"), "object");
      stepped = true;
    } else {
      break;
    }
  }
  if (!stepped || !ts::is(n, "identifier")) return std::nullopt;
  return n;
}

// The tensor `expr` refers to at this point is still one of the function's parameters: its root is a
// parameter, not rebound unconditionally before `expr` to anything but a view of itself
// (`x = self.bn(x); F.relu(x, inplace=True)` writes the local, `x = x.view(-1); x.zero_()` the input).
bool Extractor::still_param(TSNode expr, int scope) {
  if (root_kind(expr, scope) != ReceiverKind::Param) return false;
  const std::string name = root_name(expr);
  if (name.empty() || find_name(name, scope).k != Found::K::Param) return true;  // a view bound to a local name
  const auto rebound = param_rebinding(name, scope, ts_node_start_byte(expr));
  if (!rebound) return true;
  for (const Binding* b : *rebound) {
    auto viewed = view_source(b->expr);
    if (!viewed || ts::text(*viewed, src_) != name) return false;
  }
  return true;
}

ReceiverKind Extractor::root_kind_depth(TSNode expr, int scope, int depth) {
  if (depth > 4) return ReceiverKind::Value;
  if (ts::is(expr, "identifier")) {
    if (Found f = find_name(std::string(ts::text(expr, src_)), scope);
        f.k == Found::K::Binding && f.bindings && f.bindings->size() == 1 && !ts_node_is_null(f.bindings->front().expr))
      if (auto viewed = view_source(f.bindings->front().expr); viewed && !ts_node_eq(*viewed, expr))
        return root_kind_depth(*viewed, f.bindings->front().scope, depth + 1);
  }
  Value v = eval(expr, scope);
  if (v.k == Value::K::Param) return is_output_param(v.path, scope) ? ReceiverKind::Output : ReceiverKind::Param;
  return ReceiverKind::Value;
}

std::string Extractor::root_name(TSNode expr) const {
  TSNode n = expr;
  for (int guard = 0; guard < 64; ++guard) {
    if (ts::is(n, "attribute"))
      n = ts::field(n, "object");
    else if (ts::is(n, "subscript"))
      n = ts::field(n, "value");
    else if (ts::is(n, "call")) {
      TSNode f = ts::field(n, "function");
      if (!ts::is(f, "attribute")) return {};
      n = ts::field(f, "object");
    } else if (ts::is(n, "parenthesized_expression"))
      n = ts::named_child(n, 0);
    else
      break;
  }
  return ts::is(n, "identifier") ? std::string(ts::text(n, src_)) : std::string{};
}

// Remembers that a buffer was handed to a kernel or written in place, by its root name and, for
// attribute chains (self.buf), by its dotted text. Containers filled with .append() are not "written":
// that is how a result bank is stocked.
void Extractor::note_written(int scope, TSNode expr) {
  if (ts::is(expr, "attribute")) scopes_[scope].written_names.insert(std::string(ts::text(expr, src_)));
  std::string r = root_name(expr);
  if (r.empty()) return;
  Found f = find_name(r, scope);
  if (f.k == Found::K::Self) return;  // only the exact self.<attr> text counts
  if (f.k == Found::K::Binding && f.scope == 0 && scope != 0 && is_module_container(r)) return;
  scopes_[scope].written_names.insert(r);
}

void Extractor::add_cast(const std::string& dtype, const char* via, TSNode node, int scope, const Guard& guard) {
  Cast c;
  c.to_dtype = dtype;
  c.via = via;
  c.function = fn_of(scope);
  c.span = ts::span(node);
  cast_guards_.push_back(guard);
  facts_.casts.push_back(c);
}

void Extractor::record_container_mutation(TSNode obj, int scope) {
  // A module-level container mutated from a function: remember for GlobalState.mutated_in_forward.
  std::string r = root_name(obj);
  if (r.empty()) return;
  Found f = find_name(r, scope);
  if (f.k == Found::K::Binding && f.scope == 0 && fn_of(scope) >= 0) global_mutations_.push_back({r, fn_of(scope)});
}

void Extractor::record_assignment(TSNode node, int scope, const Guard& guard, bool augmented) {
  TSNode left = ts::field(node, "left");
  TSNode right = ts::field(node, "right");
  std::vector<TSNode> targets;
  std::function<void(TSNode)> gather = [&](TSNode t) {
    std::string_view k = ts::type(t);
    if (k == "pattern_list" || k == "tuple_pattern" || k == "tuple" || k == "list_pattern") {
      uint32_t n = ts::named_count(t);
      for (uint32_t i = 0; i < n; ++i) gather(ts::named_child(t, i));
    } else {
      targets.push_back(t);
    }
  };
  gather(left);
  if (ts::is(right, "assignment")) gather(ts::field(right, "left"));
  for (TSNode target : targets) {
    std::string_view k = ts::type(target);
    AttributeWrite w;
    w.target = std::string(ts::text(target, src_)).substr(0, 200);
    w.augmented = augmented;
    w.function = fn_of(scope);
    w.guard = guard;
    w.span = ts::span(node);
    if (k == "attribute") {
      TSNode obj = ts::field(target, "object");
      Value ov = eval(obj, scope);
      w.kind = WriteKind::Attribute;
      w.attribute = std::string(ts::text(ts::field(target, "attribute"), src_));
      w.resolved = value_path(ov, obj) + "." + w.attribute;
      w.dynamic_name = ov.dynamic;
      w.root = ov.k == Value::K::Path ? ReceiverKind::Module : root_kind(obj, scope);
    } else if (k == "subscript") {
      TSNode obj = ts::field(target, "value");
      Value ov = eval(obj, scope);
      w.kind = WriteKind::Subscript;
      std::string base = value_path(ov, obj);
      constexpr std::string_view kDict = ".__dict__";
      auto key = fold_in(ts::field(target, "subscript"), scope);
      if (base.size() > kDict.size() && base.compare(base.size() - kDict.size(), kDict.size(), kDict) == 0 && key) {
        w.attribute = key->text;
        w.resolved = base.substr(0, base.size() - kDict.size()) + "." + key->text;
        w.dynamic_name = true;
      } else {
        w.resolved = base + "[]";
      }
      w.root = ov.k == Value::K::Path ? ReceiverKind::Module : root_kind(obj, scope);
      // out[...] = v fills a local buffer; self.cache[k] = v stocks a cache, which is not "written".
      if (w.root != ReceiverKind::Self && w.root != ReceiverKind::Module) note_written(scope, obj);
      record_container_mutation(obj, scope);
    } else if (k == "identifier") {
      std::string name(ts::text(target, src_));
      // Only writes to globals are facts; plain locals are bindings.
      if (fn_of(scope) >= 0 && scopes_[scope].globals_declared.count(name)) {
        w.kind = WriteKind::Global;
        w.resolved = name;
        w.attribute = name;
        w.root = ReceiverKind::Module;
        global_mutations_.push_back({name, fn_of(scope)});
      } else {
        if (fn_of(scope) < 0) record_module_binding(target, right);
        continue;
      }
    } else {
      continue;
    }
    // A compiled kernel or extension handle stored for later calls (self.compiled = cute.compile(...)).
    if (targets.size() == 1 && !augmented) {
      const Value stored = eval(right, scope);
      w.stores_kernel =
          stored.k == Value::K::Kernel || stored.k == Value::K::Extension || stored.k == Value::K::ExtFunction;
    }
    // Precision flags.
    // (torch's own: `self.allow_tf32 = ...` saving the old value is not a flag.)
    if (w.resolved.rfind("torch.", 0) == 0 && (w.resolved.find("allow_tf32") != std::string::npos ||
                                               w.resolved.find("reduced_precision_reduction") != std::string::npos)) {
      TSNode value = right;
      while (ts::is(value, "assignment")) value = ts::field(value, "right");
      // Either direction: turning TF32 off slows the reference as surely as turning it on speeds it up.
      add_cast(w.resolved.find("allow_tf32") != std::string::npos ? "tf32" : "reduced-precision-reduction",
               folder_.fold_truth(value) == Truth::False ? "flag-off" : "flag", node, scope, guard);
    }
    facts_.writes.push_back(std::move(w));
  }
}

// Module-level `ModelNew = Model` and mutable containers.
void Extractor::record_module_binding(TSNode target, TSNode value) {
  std::string name(ts::text(target, src_));
  while (ts::is(value, "assignment")) value = ts::field(value, "right");
  Value v = eval(value, 0);
  if (v.k == Value::K::Class || (v.k == Value::K::Path && class_like(v.path) && name == "ModelNew")) {
    if (name == "ModelNew" || name == "Model") {
      ClassDef cd;
      cd.name = name;
      cd.alias = true;
      cd.bases.push_back(value_path(v, value));
      cd.span = ts::span(target);
      facts_.classes.push_back(cd);
    }
  }
  if (v.k == Value::K::Extension || v.k == Value::K::Function || v.k == Value::K::Class) return;
  std::string_view vt = ts::type(value);
  std::string kind;
  if (vt == "list" || vt == "list_comprehension")
    kind = "list";
  else if (vt == "dictionary" || vt == "dictionary_comprehension")
    kind = "dict";
  else if (vt == "set" || vt == "set_comprehension")
    kind = "set";
  else if (vt == "call") {
    std::string p = value_path(eval(ts::field(value, "function"), 0), value);
    if (p == "builtins.dict" || p == "collections.OrderedDict" || p == "collections.defaultdict" ||
        p == "weakref.WeakKeyDictionary" || p == "weakref.WeakValueDictionary")
      kind = "dict";
    else if (p == "builtins.list" || p == "collections.deque")
      kind = "list";
    else if (p == "builtins.set")
      kind = "set";
    else if (p.rfind("torch.", 0) == 0 && !class_like(p))
      kind = "tensor";
  } else if (vt == "none")
    kind = "object";
  if (!kind.empty()) {
    GlobalState g;
    g.name = name;
    g.kind = kind;
    g.span = ts::span(target);
    facts_.globals.push_back(g);
  }
}

void Extractor::record_name_ref(TSNode node, int scope, const Guard& guard) {
  // walk() calls this for the outermost attribute of a chain only; callees and write targets never
  // reach it (record_call and walk_target_parts walk around them).
  std::string attr(ts::text(ts::field(node, "attribute"), src_));
  static const std::unordered_set<std::string> special = {
      "f_back",       "f_locals",       "f_globals", "f_code",   "__code__", "__globals__", "__closure__",
      "__builtins__", "__subclasses__", "tb_frame",  "gi_frame", "cr_frame", "__self__",    "_version"};
  Value v = eval(node, scope);
  bool module_rooted = v.k == Value::K::Path && v.receiver == ReceiverKind::Module;
  if (!module_rooted && !special.count(attr)) {
    // References to local functions (self.helper passed along) still reach them.
    if (v.k == Value::K::Function) add_edge(fn_of(scope), v.index, edge_dead(guard));
    return;
  }
  if (v.k == Value::K::Path && is_dtype_path(v.path)) return;
  NameRef r;
  r.resolved = module_rooted ? v.path : (v.k == Value::K::Path ? v.path : "?." + attr);
  if (!module_rooted && v.k == Value::K::Path && v.path.rfind("torch.Tensor.", 0) == 0) r.resolved = "?." + attr;
  r.function = fn_of(scope);
  r.span = ts::span(node);
  if (!module_rooted) r.state_receiver = eval(ts::field(node, "object"), scope).receiver == ReceiverKind::Self;
  name_guards_.push_back(guard);
  facts_.names.push_back(r);
}

void Extractor::record_identifier_ref(TSNode node, int scope, const Guard& guard) {
  // A local function mentioned without being called (passed as a callback, stored) is reachable from
  // here. Callees and keyword names never come here (walk() steps around them).
  std::string name(ts::text(node, src_));
  Found f = find_name(name, scope);
  if (f.k == Found::K::Function) add_edge(fn_of(scope), f.index, edge_dead(guard));
  if (f.k == Found::K::Binding && f.bindings && !f.bindings->empty() && !ts_node_is_null(f.bindings->back().expr)) {
    std::string_view bt = ts::type(f.bindings->back().expr);
    if (bt == "lambda" || bt == "call" || bt == "identifier" || bt == "attribute") {
      Value v = eval(node, scope);
      if (v.k == Value::K::Function) add_edge(fn_of(scope), v.index, edge_dead(guard));
    }
  }
  if (name == "__builtins__") {
    NameRef r;
    r.resolved = "builtins.__builtins__";
    r.function = fn_of(scope);
    r.span = ts::span(node);
    name_guards_.push_back(guard);
    facts_.names.push_back(r);
  }
}

void Extractor::record_string(TSNode node, int scope) {
  auto s = fold_in(node, scope);
  if (!s || s->text.size() > 512) return;
  if (s->text.find('/') == std::string::npos && s->text.find(".py") == std::string::npos) return;
  if (s->text.find('\n') != std::string::npos) return;  // source text, not a path
  StringConst sc;
  sc.value = s->text;
  sc.function = fn_of(scope);
  sc.span = ts::span(node);
  facts_.strings.push_back(sc);
}

void Extractor::record_imports(TSNode node, int scope) {
  auto add = [&](std::string module, std::string name, std::string alias) {
    Import im;
    im.module = std::move(module);
    im.name = std::move(name);
    im.alias = std::move(alias);
    im.function = fn_of(scope);
    im.span = ts::span(node);
    facts_.imports.push_back(im);
  };
  if (ts::is(node, "import_statement")) {
    uint32_t n = ts::named_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode item = ts::named_child(node, i);
      if (ts::is(item, "dotted_name"))
        add(std::string(ts::text(item, src_)), "", "");
      else if (ts::is(item, "aliased_import"))
        add(std::string(ts::text(ts::field(item, "name"), src_)), "",
            std::string(ts::text(ts::field(item, "alias"), src_)));
    }
  } else {
    TSNode module_node = ts::field(node, "module_name");
    std::string module(ts::text(module_node, src_));
    uint32_t n = ts::named_count(node);
    bool any = false;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode item = ts::named_child(node, i);
      if (ts_node_eq(item, module_node)) continue;
      if (ts::is(item, "dotted_name")) {
        add(module, std::string(ts::text(item, src_)), "");
        any = true;
      } else if (ts::is(item, "aliased_import")) {
        add(module, std::string(ts::text(ts::field(item, "name"), src_)),
            std::string(ts::text(ts::field(item, "alias"), src_)));
        any = true;
      } else if (ts::is(item, "wildcard_import")) {
        add(module, "*", "");
        any = true;
      }
    }
    if (!any) add(module, "", "");
  }
}

void Extractor::record_class(TSNode node, int scope) {
  int ci = -1;
  for (size_t i = 0; i < classes_.size(); ++i)
    if (ts_node_eq(classes_[i].node, node)) ci = static_cast<int>(i);
  if (ci < 0) return;
  ClassDef cd;
  cd.name = classes_[ci].name;
  cd.bases = class_bases(ci);
  for (const auto& [m, idx] : classes_[ci].methods) cd.methods.push_back(m);
  std::sort(cd.methods.begin(), cd.methods.end());
  TSNode body = ts::field(node, "body");
  bool only_pass = true;
  uint32_t n = ts::named_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode st = ts::named_child(body, i);
    if (ts::is(st, "pass_statement") || ts::is(st, "comment")) continue;
    if (ts::is(st, "expression_statement") &&
        (ts::is(ts::named_child(st, 0), "string") || ts::is(ts::named_child(st, 0), "ellipsis")))
      continue;
    only_pass = false;
  }
  cd.body_only_pass = only_pass;
  cd.span = ts::span(ts::field(node, "name"));
  (void)scope;
  facts_.classes.push_back(cd);
}

void Extractor::record_handler(TSNode clause, int scope, const Guard& guard, uint32_t try_begin, uint32_t try_end) {
  ExceptHandler h;
  h.function = fn_of(scope);
  h.span = ts::span(clause);
  TSNode value = ts::field(clause, "value");
  if (ts_node_is_null(value)) {
    uint32_t n = ts::named_count(clause);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts::named_child(clause, i);
      if (!ts::is(c, "block") && !ts::is(c, "comment")) {
        value = c;
        break;
      }
    }
  }
  if (ts::is(value, "as_pattern")) value = ts::named_child(value, 0);
  if (!ts_node_is_null(value)) {
    if (ts::is(value, "tuple") || ts::is(value, "parenthesized_expression")) {
      uint32_t n = ts::named_count(value);
      for (uint32_t i = 0; i < n; ++i)
        h.catches.push_back(value_path(eval(ts::named_child(value, i), scope), ts::named_child(value, i)));
    } else {
      h.catches.push_back(value_path(eval(value, scope), value));
    }
  }
  handler_ranges_.push_back({try_begin, try_end, ts_node_start_byte(clause), ts_node_end_byte(clause)});
  handler_guards_.push_back(guard);
  facts_.handlers.push_back(h);
}

}  // namespace kgate::python::detail
