// Extractor, attribute reads that run code of the file: @property getters, a class's __getattr__,
// which supplies what normal lookup misses, and the values of an enum's members. What such a read gives is followed
// where the gate can name it, so that a hook handing back the submission's own launcher resolves and one handing back a
// library function is a call of that function; what stays unknown is unresolved (never silence).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

namespace {

// A value that a call can be followed into or judged as: a library function, a function or kernel of
// the file, an extension or its function. Not a dtype or a tensor method.
bool nameable_callable(const Value& v) {
  return (v.k == Value::K::Path && !is_dtype_path(v.path) && v.path.rfind("torch.Tensor.", 0) != 0) ||
         v.k == Value::K::Kernel || v.k == Value::K::Function || v.k == Value::K::ExtFunction ||
         v.k == Value::K::Extension;
}

Truth truth_of(bool b) { return b ? Truth::True : Truth::False; }

Truth negate(Truth t) { return t == Truth::Unknown ? t : truth_of(t == Truth::False); }

Truth both(Truth a, Truth b) {
  if (a == Truth::False || b == Truth::False) return Truth::False;
  return a == Truth::True && b == Truth::True ? Truth::True : Truth::Unknown;
}

// The operator token of a two-operand comparison (`==`, `!=`, `in`, `not in`).
std::string_view comparison_op(TSNode cmp, std::string_view src) {
  std::string_view op;
  for (uint32_t i = 0; i < ts::count(cmp); ++i)
    if (TSNode c = ts::child(cmp, i); !ts_node_is_named(c)) op = ts::text(c, src);
  return op;
}

}  // namespace

// Whether a class of the file, or a base of it in the file, defines __getattr__ / __getattribute__;
// asked on every attribute read through self, so found once per class.
// Looked up from depth 0, whatever the depth of the read that asks, so the answer kept is complete.
Extractor::AttributeHooks Extractor::attribute_hooks(int ci) {
  if (auto known = attribute_hooks_.find(ci); known != attribute_hooks_.end()) return known->second;
  AttributeHooks hooks;
  hooks.getattr = class_member(ci, "__getattr__", 0, ReceiverKind::Self).k == Value::K::Function;
  hooks.getattribute = class_member(ci, "__getattribute__", 0, ReceiverKind::Self).k == Value::K::Function;
  return attribute_hooks_[ci] = hooks;
}

// Reading a @property (or functools.cached_property) runs its getter: the attribute is what the getter
// returns. Followed where that is a callable the gate can name, so that `self.finish(y)` with a getter
// that returns torch.sigmoid calls torch.sigmoid; nullopt otherwise (the getter stays the value).
std::optional<Value> Extractor::property_value(int fi, int depth) {
  const auto& decorators = facts_.functions[fi].decorators;
  const bool property = std::any_of(decorators.begin(), decorators.end(), [](const std::string& d) {
    return d == "builtins.property" || d == "functools.cached_property";
  });
  if (!property) return std::nullopt;
  return returned_callable(fi, depth);
}

// The first value a function of the file returns that is a callable the gate can name (a getter's,
// a context manager's __enter__).
std::optional<Value> Extractor::returned_callable(int fi, int depth) {
  if (depth > kMaxEvalDepth) return std::nullopt;
  if (const TSNode node = function_nodes_[fi]; ts::is(node, "lambda")) {  // lambda: torch.relu
    Value v = eval(ts::field(node, "body"), function_scope_[fi], depth + 1);
    if (nameable_callable(v)) return v;
  }
  const auto returns = return_exprs_.find(fi);
  if (returns == return_exprs_.end()) return std::nullopt;
  for (const Binding& r : returns->second) {
    Value v = eval(r.expr, r.scope, depth + 1);
    if (nameable_callable(v)) return v;
  }
  return std::nullopt;
}

// Whether `cond` holds when __getattr__'s name parameter `param` is `attr`: comparisons of the name
// with string constants (==, !=, in, not in), its startswith/endswith, and not/and/or over those;
// any other condition is folded as a constant, or Unknown.
Truth Extractor::name_condition(TSNode cond, const std::string& param, const std::string& attr, int scope) {
  const std::string_view t = ts::type(cond);
  const auto is_param = [&](TSNode n) { return ts::is(n, "identifier") && ts::text(n, src_) == param; };
  if (t == "parenthesized_expression") return name_condition(ts::named_child(cond, 0), param, attr, scope);
  if (t == "not_operator") return negate(name_condition(ts::field(cond, "argument"), param, attr, scope));
  if (t == "boolean_operator") {
    const Truth l = name_condition(ts::field(cond, "left"), param, attr, scope);
    const Truth r = name_condition(ts::field(cond, "right"), param, attr, scope);
    if (ts::text(ts::field(cond, "operator"), src_) == "and") return both(l, r);
    return negate(both(negate(l), negate(r)));
  }
  if (t == "comparison_operator" && ts::named_count(cond) == 2) {
    TSNode left = ts::named_child(cond, 0), right = ts::named_child(cond, 1);
    const std::string_view op = comparison_op(cond, src_);
    if ((op == "==" || op == "!=") && (is_param(left) || is_param(right))) {
      const auto other = fold_in(is_param(left) ? right : left, scope);
      if (!other) return Truth::Unknown;
      return truth_of((other->text == attr) == (op == "=="));
    }
    if ((op == "in" || op == "not in") && is_param(left)) {
      int saved = current_scope_;
      current_scope_ = scope;
      const auto names = folder_.fold_string_list(right);
      current_scope_ = saved;
      if (!names || ts::is(right, "string")) return Truth::Unknown;  // `name in "abc"` is a substring test
      const bool found = std::any_of(names->begin(), names->end(), [&](const auto& n) { return n.text == attr; });
      return truth_of(found == (op == "in"));
    }
  }
  if (t == "call") {
    TSNode fn = ts::field(cond, "function");
    TSNode args = ts::field(cond, "arguments");
    if (ts::is(fn, "attribute") && is_param(ts::field(fn, "object")) && ts::named_count(args) == 1) {
      const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
      const auto affix = fold_in(ts::named_child(args, 0), scope);
      if (affix && method == "startswith") return truth_of(attr.rfind(affix->text, 0) == 0);
      if (affix && method == "endswith")
        return truth_of(attr.size() >= affix->text.size() &&
                        attr.compare(attr.size() - affix->text.size(), affix->text.size(), affix->text) == 0);
    }
  }
  int saved = current_scope_;
  current_scope_ = scope;
  const Truth folded = folder_.fold_truth(cond);
  current_scope_ = saved;
  return folded;
}

// Whether a return statement of __getattr__ (body `body`) is reached when the name is `attr`: the
// conditions of the if/elif/else branches around it. A loop or try around it makes True Unknown (the
// loop may not run, the try may raise first).
Truth Extractor::return_reached(TSNode ret, TSNode body, const std::string& param, const std::string& attr, int scope) {
  Truth reached = Truth::True;
  const auto earlier_false = [&](TSNode if_stmt, TSNode upto) {
    Truth t = negate(name_condition(ts::field(if_stmt, "condition"), param, attr, scope));
    for (uint32_t i = 0; i < ts::named_count(if_stmt); ++i) {
      TSNode clause = ts::named_child(if_stmt, i);
      if (ts_node_eq(clause, upto)) break;
      if (ts::is(clause, "elif_clause"))
        t = both(t, negate(name_condition(ts::field(clause, "condition"), param, attr, scope)));
    }
    return t;
  };
  for (TSNode n = ret; !ts_node_is_null(n) && !ts_node_eq(n, body); n = ts::parent(n)) {
    TSNode p = ts::parent(n);
    if (!ts::is(n, "block")) {
      if (ts::is(n, "for_statement") || ts::is(n, "while_statement") || ts::is(n, "try_statement"))
        reached = both(reached, Truth::Unknown);
      continue;
    }
    if (ts::is(p, "if_statement") && ts_node_eq(ts::field(p, "consequence"), n)) {
      reached = both(reached, name_condition(ts::field(p, "condition"), param, attr, scope));
    } else if (ts::is(p, "elif_clause")) {
      reached = both(reached, name_condition(ts::field(p, "condition"), param, attr, scope));
      reached = both(reached, earlier_false(ts::parent(p), p));
    } else if (ts::is(p, "else_clause") && ts::is(ts::parent(p), "if_statement")) {
      reached = both(reached, earlier_false(ts::parent(p), p));
    }
  }
  return reached;
}

// What `obj.attr` gives when normal lookup misses it and class `ci` defines __getattr__: the values its
// reachable returns give for that name, in source order up to the first return that is surely
// reached. A return that hands the name back to normal lookup (super().__getattr__(name),
// nn.Module.__getattr__(self, name)) finds nothing the gate missed, and is left out. A library
// callable among the values wins (the call may run it); otherwise the first callable of the file.
// nullopt: no value the gate can name (what runs is known only at run time).
std::optional<Value> Extractor::getattr_value(int ci, const std::string& attr, int depth) {
  const Value hook = class_member(ci, "__getattr__", depth, ReceiverKind::Self);
  if (hook.k != Value::K::Function || depth > kMaxEvalDepth) return std::nullopt;
  const int fi = hook.index;
  const auto& params = facts_.functions[fi].params;
  const auto returns = return_exprs_.find(fi);
  if (params.size() < 2 || returns == return_exprs_.end()) return std::nullopt;
  TSNode body = ts::field(function_nodes_[fi], "body");
  std::vector<const Binding*> ordered;
  for (const Binding& r : returns->second) ordered.push_back(&r);
  std::sort(ordered.begin(), ordered.end(), [](const Binding* a, const Binding* b) {
    return ts_node_start_byte(a->expr) < ts_node_start_byte(b->expr);
  });
  std::optional<Value> library, own;
  for (const Binding* r : ordered) {
    const Truth reached = return_reached(r->expr, body, params[1], attr, r->scope);
    if (reached == Truth::False) continue;
    TSNode fn = ts::is(r->expr, "call") ? ts::field(r->expr, "function") : TSNode{};
    const std::string_view method = ts::is(fn, "attribute") ? ts::text(ts::field(fn, "attribute"), src_) : "";
    if (method == "__getattr__" || method == "__getattribute__") {
      TSNode base = ts::field(fn, "object");
      const bool super_call = ts::is(base, "call") && ts::text(ts::field(base, "function"), src_) == "super";
      const Value owner = super_call ? Value{} : eval(base, r->scope, depth + 1);
      if (super_call ||
          (owner.k == Value::K::Path && (owner.path == "torch.nn.Module" || owner.path == "builtins.object"))) {
        if (reached == Truth::True) break;
        continue;
      }
    }
    Value v = eval(r->expr, r->scope, depth + 1);
    if (v.unresolved || !nameable_callable(v)) return std::nullopt;
    if (v.k == Value::K::Path && !library) library = v;
    if (v.k != Value::K::Path && !own) own = v;
    if (reached == Truth::True) break;
  }
  return library ? library : own;
}

// A class of the file that derives from enum.Enum (IntEnum, Flag, ...), directly or through another
// class of the file.
bool Extractor::is_enum_class(int ci, int depth) {
  if (ci < 0 || depth > kMaxEvalDepth) return false;
  for (TSNode base : classes_[ci].base_nodes) {
    if (ts::is(base, "keyword_argument")) continue;
    const Value b = eval(base, classes_[ci].scope, depth + 1);
    if (b.k == Value::K::Path && b.path.rfind("enum.", 0) == 0) return true;
    if (b.k == Value::K::Class && b.index != ci && is_enum_class(b.index, depth + 1)) return true;
  }
  return false;
}

// `Cls.MEMBER.value` or `Cls["MEMBER"].value` of an enum class of the file: what its body binds to
// MEMBER; with a key known only at run time (`Cls[name].value`), what it binds to any member. Nullopt
// for anything else.
std::optional<std::vector<Binding>> Extractor::enum_member_value(TSNode node, int scope, int depth) {
  if (!ts::is(node, "attribute") || depth > kMaxEvalDepth) return std::nullopt;
  const std::string_view attr = ts::text(ts::field(node, "attribute"), src_);
  if (attr != "value" && attr != "_value_") return std::nullopt;
  const TSNode member = ts::field(node, "object");
  TSNode owner{};
  std::string name;
  if (ts::is(member, "attribute")) {
    owner = ts::field(member, "object");
    name = std::string(ts::text(ts::field(member, "attribute"), src_));
  } else if (ts::is(member, "subscript")) {
    owner = ts::field(member, "value");
    if (auto folded = fold_in(ts::field(member, "subscript"), scope)) name = folded->text;
  } else {
    return std::nullopt;
  }
  const Value cls = eval(owner, scope, depth + 1);
  if (cls.k != Value::K::Class || !is_enum_class(cls.index, depth + 1)) return std::nullopt;
  const auto& attrs = classes_[cls.index].class_attrs;
  if (!name.empty()) {
    auto it = attrs.find(name);
    if (it == attrs.end()) return std::nullopt;
    return it->second;
  }
  std::vector<Binding> any;
  for (const auto& [member_name, bindings] : attrs)
    if (member_name.rfind('_', 0) != 0) any.insert(any.end(), bindings.begin(), bindings.end());
  std::sort(any.begin(), any.end(),
            [](const Binding& a, const Binding& b) { return ts_node_start_byte(a.expr) < ts_node_start_byte(b.expr); });
  return any;
}

// A method that the class body around `node` defines under `name` (`act = functools.partialmethod(_apply,
// ...)` names `_apply` above it); Unknown outside a class body.
Value Extractor::class_body_method(TSNode node, TSNode name) {
  for (TSNode p = ts::parent(node); !ts_node_is_null(p); p = ts::parent(p)) {
    if (ts::is(p, "function_definition") || ts::is(p, "lambda")) break;
    if (!ts::is(p, "class_definition")) continue;
    for (const ClassInfo& ci : classes_)
      if (ts_node_eq(ci.node, p))
        if (auto it = ci.methods.find(std::string(ts::text(name, src_))); it != ci.methods.end()) {
          Value v;
          v.k = Value::K::Function;
          v.index = it->second;
          return v;
        }
    break;
  }
  return Value{};
}

// An attribute that a class decorator of the file sets on the class it is given (`def with_act(cls):
// cls.act = staticmethod(torch.relu); return cls`): what it sets.
std::optional<Value> Extractor::decorator_set_attribute(int ci, const std::string& attr, int depth) {
  for (TSNode d : classes_[ci].decorator_nodes) {
    const Value deco = eval(ts::is(d, "call") ? ts::field(d, "function") : d, classes_[ci].scope, depth + 1);
    if (deco.k != Value::K::Function) continue;
    // A factory (`@with_act(torch.relu)`): the decorator it returns sets the attribute.
    int g = deco.index;
    if (ts::is(d, "call"))
      if (std::optional<Value> inner = returned_callable(deco.index, depth + 1);
          inner && inner->k == Value::K::Function)
        g = inner->index;
    const TSNode params = ts::field(function_nodes_[g], "parameters");
    TSNode first = ts::named_child(params, 0);
    if (!ts::is(first, "identifier")) first = ts::field(first, "name");
    auto fa = param_attrs_.find(g);
    if (ts_node_is_null(first) || fa == param_attrs_.end()) continue;
    if (auto it = fa->second.find(std::string(ts::text(first, src_)) + "." + attr); it != fa->second.end())
      return eval_binding(it->second, depth + 1);
  }
  return std::nullopt;
}

}  // namespace kgate::python::detail
