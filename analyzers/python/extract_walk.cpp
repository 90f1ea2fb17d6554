// Extractor, pass 2: the walk over the tree with branch guards (their tests: extract_guards.cpp), and the
// roots of receivers; the facts it records are extract_records.cpp's.
#include "analyzers/python/extractor.h"

#include <string>

#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {
namespace {

// The leftmost operand of an attribute/subscript/call chain (`x` of `x.view(-1)[0].t()`). A call of a
// plain function (`f(x).y`) is a root of its own: with through_plain_calls its function name is the
// root, without it there is none (a null node).
TSNode chain_root(TSNode expr, bool through_plain_calls) {
  TSNode n = expr;
  for (int guard = 0; guard < 64; ++guard) {
    if (ts::is(n, "attribute")) {
      n = ts::field(n, "object");
    } else if (ts::is(n, "subscript")) {
      n = ts::field(n, "value");
    } else if (ts::is(n, "call")) {
      n = ts::field(n, "function");
      if (!through_plain_calls && !ts::is(n, "attribute")) return TSNode{};
    } else if (ts::is(n, "parenthesized_expression")) {
      n = ts::named_child(n, 0);
    } else {
      break;
    }
  }
  return n;
}

}  // namespace

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
  if (t == "comparison_operator") record_identity_comparison(node, scope, guard);
  if (t == "unary_operator") record_unary_operator(node, scope, guard);
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
  TSNode n = chain_root(expr, true);
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
  return !rebound || views_itself(*rebound, name);
}

// Some binding of `rebound` (those of parameter `name` that may reach a use) leaves it the parameter's
// memory: a view of itself (`x = x.view(-1)`), directly or in one arm of a conditional expression.
bool Extractor::views_itself(const std::vector<const Binding*>& rebound, const std::string& name) const {
  for (const Binding* b : rebound)
    for (TSNode source : alias_sources(b->expr))
      if (ts::text(source, src_) == name) return true;
  return false;
}

// The names whose memory `expr` may be: the tensor it is a view of, a name it copies (`buf = row`), or
// either arm of a conditional expression (`x if c else torch.empty_like(x)`).
std::vector<TSNode> Extractor::alias_sources(TSNode expr) const {
  std::vector<TSNode> out;
  if (ts_node_is_null(expr)) return out;
  while (ts::is(expr, "parenthesized_expression") && ts::named_count(expr) == 1) expr = ts::named_child(expr, 0);
  if (ts::is(expr, "conditional_expression") && ts::named_count(expr) == 3) {
    for (uint32_t arm : {0u, 2u})
      for (TSNode n : alias_sources(ts::named_child(expr, arm))) out.push_back(n);
    return out;
  }
  if (const auto viewed = view_source(expr)) {
    out.push_back(*viewed);
  } else if (ts::is(expr, "identifier")) {
    out.push_back(expr);
  }
  return out;
}

ReceiverKind Extractor::root_kind_depth(TSNode expr, int scope, int depth) {
  if (depth > 4) return ReceiverKind::Value;
  if (ts::is(expr, "identifier")) {
    // A local is a parameter's memory where a binding that may reach this use made it a view of one
    // (`v = x.view(-1)`) or another name for one (`buf = row`, in a loop that binds it after the write).
    if (Found f = find_name(std::string(ts::text(expr, src_)), scope); f.k == Found::K::Binding && f.bindings)
      for (const Binding* b : reaching_bindings(*f.bindings, f.scope == scope ? expr : TSNode{}))
        for (TSNode source : alias_sources(b->expr)) {
          if (ts_node_eq(source, expr)) continue;
          const ReceiverKind k = root_kind_depth(source, b->scope, depth + 1);
          if (k == ReceiverKind::Param || k == ReceiverKind::Output) return k;
        }
  }
  // Reached through a local's binding: a parameter rebound before that binding (`logits = softmax(logits)`
  // before `head = logits[:k]`) is the new tensor there, unless it was rebound to a view of itself.
  if (depth > 0 && ts::is(expr, "identifier")) {
    const std::string name(ts::text(expr, src_));
    if (find_name(name, scope).k == Found::K::Param)
      if (const auto rebound = param_rebinding(name, scope, ts_node_start_byte(expr));
          rebound && !views_itself(*rebound, name))
        return ReceiverKind::Value;
  }
  Value v = eval(expr, scope);
  if (v.k == Value::K::Param) return is_output_param(v.path, scope) ? ReceiverKind::Output : ReceiverKind::Param;
  return ReceiverKind::Value;
}

std::string Extractor::root_name(TSNode expr) const {
  TSNode n = chain_root(expr, false);
  return ts::is(n, "identifier") ? std::string(ts::text(n, src_)) : std::string{};
}

}  // namespace kgate::python::detail
