// Extractor, after the entries are found: what the module binds to the harness's entries outside their
// definitions. Entry methods rebound after the class body (followed when the gate can, else reported),
// class decorators, __new__, __getattribute__ and metaclasses that decide what the harness builds, and
// entry functions bound to what is not a function of the file (all judged by entry-class-replaced).
// Split from extract_scopes.cpp.
#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

void Extractor::rebound_attributes(TSNode n, const std::function<bool(TSNode)>& is_object,
                                   std::vector<std::pair<std::string, TSNode>>& out, int depth) const {
  if (ts_node_is_null(n) || depth > 200) return;
  if (ts::is(n, "assignment") || ts::is(n, "augmented_assignment")) {
    TSNode left = ts::field(n, "left");
    if (ts::is(left, "attribute") && is_object(ts::field(left, "object")))
      out.emplace_back(std::string(ts::text(ts::field(left, "attribute"), src_)), n);
  }
  if (ts::is(n, "call")) {
    TSNode fn = ts::field(n, "function");
    TSNode args = ts::field(n, "arguments");
    if (ts::is(fn, "identifier") && ts::text(fn, src_) == "setattr" && ts::named_count(args) >= 2 &&
        is_object(ts::named_child(args, 0))) {
      const auto name = folder_.fold_string(ts::named_child(args, 1));
      out.emplace_back(name ? name->text : std::string("*"), n);
    }
  }
  for (uint32_t i = 0; i < ts::named_count(n); ++i)
    rebound_attributes(ts::named_child(n, i), is_object, out, depth + 1);
}

// `Model.__call__ = Model.forward` or `ModelNew.forward = fast` as a statement of the module body,
// with a function of this file on the right: that function replaces the entry method it rebinds
// (forward, for __call__) in the entries. False when the rebinding is not one the gate can follow.
bool Extractor::follow_entry_rebinding(const std::string& attr, TSNode at) {
  const bool entry_method =
      std::find(profile_->entry_methods.begin(), profile_->entry_methods.end(), attr) != profile_->entry_methods.end();
  if (attr != "__call__" && !entry_method) return false;
  TSNode statement = ts_node_parent(at);
  if (!ts::is(statement, "expression_statement") || !ts_node_eq(ts_node_parent(statement), root_)) return false;
  TSNode value;
  if (ts::is(at, "assignment")) {
    value = ts::field(at, "right");
  } else if (ts::is(at, "call")) {
    value = positional_arg(ts::field(at, "arguments"), 2);
  }
  if (ts_node_is_null(value)) return false;
  const Value v = eval(value, 0, 1);
  if (v.k != Value::K::Function) return false;
  // What the method held until now: the class body's definition, or an earlier rebinding's function.
  const std::string method = attr == "__call__" ? "forward" : attr;
  int replaced = -1;
  if (auto earlier = rebound_methods_.find(method); earlier != rebound_methods_.end()) {
    replaced = earlier->second;
  } else if (const Value m = class_member(model_class_, method, 1, ReceiverKind::Value); m.k == Value::K::Function) {
    replaced = m.index;
  }
  auto& entries = facts_.entries;
  auto it = std::find(entries.begin(), entries.end(), replaced);
  const bool present = std::find(entries.begin(), entries.end(), v.index) != entries.end();
  if (replaced < 0 || it == entries.end()) {
    if (!present) entries.push_back(v.index);
  } else if (present && v.index != replaced) {
    if (facts_.entry == replaced) facts_.entry = v.index;
    entries.erase(it);
  } else {
    if (facts_.entry == replaced) facts_.entry = v.index;
    *it = v.index;
  }
  rebound_methods_[method] = v.index;
  // Bound as a method, a function written outside the class gets the instance as its first parameter.
  if (v.index < static_cast<int>(function_scope_.size())) {
    Scope& scope = scopes_[function_scope_[v.index]];
    if (scope.class_index < 0 && !facts_.functions[v.index].params.empty()) {
      scope.class_index = model_class_;
      scope.self_name = facts_.functions[v.index].params.front();
    }
  }
  rebound_entries_.insert(v.index);
  entry_rebinding_at_.insert(ts_node_start_byte(at));
  return true;
}

// The functions the harness calls by name: the profile's, and those a config or an evaluator adds.
std::vector<std::string> Extractor::entry_function_names() const {
  std::vector<std::string> names = profile_->entry_functions;
  names.insert(names.end(), harness_.extra_entry_functions.begin(), harness_.extra_entry_functions.end());
  return names;
}

// A module-level value the harness could call in place of a function of the file: a library path, a
// lambda, or what a call returns. Constants and containers are not.
bool Extractor::offered_callable(const std::string& name) {
  const auto b = scopes_[0].bindings.find(name);
  if (b == scopes_[0].bindings.end() || b->second.empty() || ts_node_is_null(b->second.back().expr)) return false;
  const TSNode expr = b->second.back().expr;
  if (ts::is(expr, "lambda") || ts::is(expr, "call")) return true;
  return (ts::is(expr, "identifier") || ts::is(expr, "attribute")) && eval(expr, 0, 1).k == Value::K::Path;
}

// An import from a library whose functions are never the submission's own (its own modules, relative
// or beside it, are followed by the pipeline instead).
bool Extractor::library_import(const std::string& target) {
  static const std::set<std::string> kLibraries = {"torch", "torchvision", "numpy", "scipy", "jax", "cupy", "triton"};
  return kLibraries.count(target.substr(0, target.find('.'))) > 0 && target.find('.') != std::string::npos;
}

// The top-level import statement that binds `name` (the module's node when none does).
TSNode Extractor::import_statement_of(const std::string& name) const {
  for (TSNode statement : ts::named_children(root_)) {
    if (!ts::is(statement, "import_from_statement") && !ts::is(statement, "import_statement")) continue;
    for (TSNode item : ts::named_children(statement)) {
      if (ts_node_eq(item, ts::field(statement, "module_name"))) continue;
      const TSNode bound = ts::is(item, "aliased_import") ? ts::field(item, "alias") : item;
      if (ts::text(bound, src_) == name) return statement;
    }
  }
  return root_;
}

void Extractor::note_entry_function_bindings() {
  if (!profile_) return;
  std::set<std::string> seen;
  for (const std::string& name : entry_function_names()) {
    if (!seen.insert(name).second || module_function_named(name) >= 0) continue;
    // The module's last binding of the name is what the harness gets (as module_function_named reads it);
    // without one, a library function imported under the name.
    const auto b = scopes_[0].bindings.find(name);
    const auto imported = scopes_[0].imports.find(name);
    if (b == scopes_[0].bindings.end() && imported != scopes_[0].imports.end() && library_import(imported->second)) {
      record_module_binding(name, imported->second, import_statement_of(name), "@entry-function");
      continue;
    }
    if (b == scopes_[0].bindings.end() || b->second.empty() || ts_node_is_null(b->second.back().expr)) continue;
    const TSNode expr = b->second.back().expr;
    const Value v = eval(expr, 0, 1);
    record_module_binding(name, v.k == Value::K::Path ? v.path : std::string(ts::text(expr, src_)), expr,
                          "@entry-function");
  }
}

// A module-level binding of a harness entry, as a call fact that entry-class-replaced judges: `kind` is
// "@entry-function" (an entry function bound to what is not a function of the file) or "@replaces-entry".
void Extractor::record_module_binding(const std::string& name, const std::string& resolved, TSNode at,
                                      const char* kind) {
  Call c;
  c.callee = name;
  c.resolved = resolved;
  c.method = last_component(c.resolved);
  c.local_target = true;
  c.keywords = {kind, "@module-level"};
  c.span = ts::span(at);
  call_start_.push_back(ts_node_start_byte(at));
  facts_.calls.push_back(std::move(c));
}

void Extractor::note_entry_class_wrappers() {
  if (model_class_ < 0) return;
  const ClassInfo& entry = classes_[model_class_];
  // A method of the entry class, or one the harness or Python calls on it: rebinding it outside the
  // class body (`ModelNew.forward = f`, a decorator's `cls.forward = f`, setattr) replaces the code judged.
  const auto replaces_method = [&](const std::string& attr) {
    static const std::set<std::string> kCalled = {"forward",     "__call__",         "__new__",   "__init__",
                                                  "__getattr__", "__getattribute__", "_call_impl"};
    // An attribute that only assignments outside the class body give (`ModelNew.act = f`): setting
    // it is what defines it, not a rebinding of a method the gate judged.
    const ClassInfo& ci = classes_[model_class_];
    const auto outside_only = [&]() {
      auto it = ci.class_attrs.find(attr);
      if (ci.methods.count(attr)) return false;
      // Only a class decorator of the file gives it (`cls.act = staticmethod(f)`), and no base class has it.
      if (it == ci.class_attrs.end())
        return decorator_set_attribute(model_class_, attr, 1).has_value() &&
               std::none_of(ci.base_nodes.begin(), ci.base_nodes.end(), [&](TSNode b) {
                 const Value base = eval(b, ci.scope, 1);
                 return base.k == Value::K::Class && base.index >= 0 &&
                        class_member(base.index, attr, 1, ReceiverKind::Value).k == Value::K::Function;
               });
      const uint32_t from = ts_node_start_byte(ci.node), to = ts_node_end_byte(ci.node);
      return std::none_of(it->second.begin(), it->second.end(), [&](const Binding& b) {
        return ts_node_start_byte(b.expr) >= from && ts_node_start_byte(b.expr) < to;
      });
    };
    return attr == "*" || kCalled.count(attr) > 0 ||
           (class_member(model_class_, attr, 1, ReceiverKind::Value).k == Value::K::Function && !outside_only());
  };
  const auto record = [&](TSNode at, const std::string& resolved, const std::string& why,
                          const char* kind = "@replaces-entry") {
    Call c;
    c.callee = std::string(ts::text(at, src_));
    c.resolved = resolved;
    c.method = last_component(resolved);
    c.local_target = true;
    c.keywords = {kind, why};
    c.span = ts::span(at);
    call_start_.push_back(ts_node_start_byte(at));
    facts_.calls.push_back(std::move(c));
  };
  // A decorator of this file that hands back something other than the class it was given.
  for (TSNode d : entry.decorator_nodes) {
    const Value v = eval(d, entry.scope, 1);
    if (v.k != Value::K::Function) continue;
    const Function& fn = facts_.functions[v.index];
    bool identity = !fn.params.empty();
    auto returns = return_exprs_.find(v.index);
    if (returns == return_exprs_.end()) identity = false;
    for (const Binding& r : returns == return_exprs_.end() ? std::vector<Binding>{} : returns->second)
      identity = identity && ts::is(r.expr, "identifier") && ts::text(r.expr, src_) == fn.params.front();
    if (!identity) {
      record(d, fn.qualname, "@class-decorator");
      continue;
    }
    // A decorator that hands the class back after rebinding its methods.
    std::vector<std::pair<std::string, TSNode>> rebound;
    const std::string param = fn.params.front();
    rebound_attributes(
        function_nodes_[v.index], [&](TSNode o) { return ts::is(o, "identifier") && ts::text(o, src_) == param; },
        rebound, 0);
    for (const auto& [attr, at] : rebound)
      if (replaces_method(attr)) {
        record(d, fn.qualname + " (" + param + "." + attr + ")", "@class-decorator", "@rebinds-entry");
        break;
      }
  }
  // The entry class's methods rebound anywhere in the file (`ModelNew.forward = fast`). A statement of
  // the module's own body that binds an entry method, or __call__ (which the harness calls instead of
  // forward), to a function of this file is followed: that function is the entry from then on. Any
  // other rebinding (in a function, under a condition, to something not defined here) is reported.
  {
    std::vector<std::pair<std::string, TSNode>> rebound;
    rebound_attributes(
        root_, [&](TSNode o) { return ts::is(o, "identifier") && ts::text(o, src_) == entry.name; }, rebound, 0);
    for (const auto& [attr, at] : rebound) {
      if (!replaces_method(attr)) continue;
      if (follow_entry_rebinding(attr, at)) continue;
      record(at, entry.name + "." + attr, "@module-level", "@rebinds-entry");
    }
  }
  // `__new__` that returns something other than a fresh instance of the class
  // (`return super().__new__(cls)` and `object.__new__(cls)` are the instance).
  const Value created = class_member(model_class_, "__new__", 1, ReceiverKind::Value);
  if (created.k == Value::K::Function) {
    auto returns = return_exprs_.find(created.index);
    bool instance = returns != return_exprs_.end() && !returns->second.empty();
    for (const Binding& r : returns == return_exprs_.end() ? std::vector<Binding>{} : returns->second) {
      TSNode callee = ts::is(r.expr, "call") ? ts::field(r.expr, "function") : TSNode{};
      instance = instance && ts::is(callee, "attribute") && ts::text(ts::field(callee, "attribute"), src_) == "__new__";
    }
    if (!instance) record(function_nodes_[created.index], facts_.functions[created.index].qualname, "@new");
  }
  // __getattribute__ on the entry class (or a base of this file) runs for every attribute read, the
  // harness's own `self.forward` lookup in nn.Module.__call__ included: it decides what forward is.
  // (__getattr__ runs only for names normal lookup misses, and forward is not one.)
  const Value lookup = class_member(model_class_, "__getattribute__", 1, ReceiverKind::Value);
  if (lookup.k == Value::K::Function)
    record(function_nodes_[lookup.index], facts_.functions[lookup.index].qualname, "@getattribute");
  // A metaclass of this file whose __call__ decides what `ModelNew(...)` returns.
  if (!ts_node_is_null(entry.metaclass)) {
    const Value meta = eval(entry.metaclass, entry.scope, 1);
    if (meta.k == Value::K::Class) {
      const Value call = class_member(meta.index, "__call__", 1, ReceiverKind::Value);
      if (call.k == Value::K::Function)
        record(entry.metaclass, facts_.functions[call.index].qualname, "@metaclass-call");
    }
  }
}

}  // namespace kgate::python::detail
