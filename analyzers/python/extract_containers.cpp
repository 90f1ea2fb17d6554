// Extractor, after pass 2: what a called module container holds. Calling nn.Sequential, nn.ModuleList or
// nn.ModuleDict (directly, by index, or through a loop variable) calls its children: a module class of
// this file gets an edge to its forward, a torch module becomes a call of that module at the
// container's call site. Containers are followed the way real submissions build them: inline, from a
// list filled with append/extend/insert (skipping fills under a dead guard), from a helper's return
// value (`self.layer1 = self._make_layer(Block, 64, 2)`), from a class handed to that helper as an
// argument, and from an empty container attribute filled later (`self.units.append(unit)`).
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

// A helper's returned module: the first return value that is a module container or a module class of
// this file. What `self.stage = self._make_stage(...)` holds, so that calling it is a container call.
Value Extractor::returned_module(int fi, int depth) {
  Value none;
  auto it = return_exprs_.find(fi);
  if (it == return_exprs_.end() || depth > kMaxEvalDepth) return none;
  if (auto memo = returned_modules_.find(fi); memo != returned_modules_.end()) return memo->second;
  returned_modules_.emplace(fi, none);  // a helper that returns its own call ends here
  Value found;
  for (const Binding& r : it->second) {
    Value e = eval(r.expr, r.scope, depth + 1);
    if (e.k == Value::K::Instance &&
        ((e.index >= 0 && is_nn_module(e.index)) || (e.index < 0 && module_container(e.path)))) {
      found = e;
      break;
    }
  }
  returned_modules_[fi] = found;
  return found;
}

// Where a parameter of function `fi` stands among the positional parameters: its index (-1 when it is
// keyword-only, `**kw`, or not there), whether it is `*args` (every positional argument from there on),
// and its default's node.
Extractor::ParamPlace Extractor::param_place(int fi, const std::string& name) const {
  ParamPlace place;
  if (fi < 0 || static_cast<size_t>(fi) >= function_nodes_.size()) return place;
  int index = 0;
  for (TSNode p : ts::named_children(ts::field(function_nodes_[fi], "parameters"))) {
    const std::string_view kind = ts::type(p);
    if (kind == "list_splat_pattern" && ts::text(ts::named_child(p, 0), src_) == name) {
      place.position = index;
      place.gathered = true;
      break;
    }
    if (kind == "list_splat_pattern" || kind == "dictionary_splat_pattern" || kind == "keyword_separator" ||
        kind == "positional_separator")
      break;  // what follows is keyword-only, or gathered: not followed by position
    TSNode id = kind == "identifier" ? p : ts::field(p, "name");
    if (ts_node_is_null(id)) id = ts::named_child(p, 0);  // typed_parameter: the name is its first child
    if (ts::text(id, src_) == name) {
      place.position = index;
      place.default_value = ts::field(p, "value");
      break;
    }
    ++index;
  }
  return place;
}

// The expressions a parameter of the function of `scope` may be bound to: its default, and the
// argument at each call of the function in this file (by keyword, else by position; a method called
// through an attribute does not pass `self` among the arguments).
std::vector<Binding> Extractor::param_arguments(int scope, const std::string& name) const {
  std::vector<Binding> out;
  const int fi = scopes_[scope].function;
  if (fi < 0 || static_cast<size_t>(fi) >= function_nodes_.size()) return out;
  const ParamPlace place = param_place(fi, name);
  const int position = place.position;
  const bool gathered = place.gathered;
  if (!ts_node_is_null(place.default_value)) out.push_back(Binding{place.default_value, scopes_[scope].parent});
  const bool method = scopes_[scope].class_index >= 0 && !scopes_[scope].self_name.empty();
  auto sites = call_sites_.find(fi);
  if (sites == call_sites_.end()) return out;
  for (const CallSite& site : sites->second) {
    if (gathered) {
      const int from = position - (method && site.through_attribute ? 1 : 0) + site.leading;
      for (uint32_t at = static_cast<uint32_t>(std::max(from, 0));; ++at) {
        TSNode arg = positional_arg(site.args, at);
        if (ts_node_is_null(arg)) break;
        out.push_back(Binding{ts::is(arg, "list_splat") ? ts::named_child(arg, 0) : arg, site.scope});
      }
      continue;
    }
    TSNode arg = keyword_arg(site.args, name);
    if (ts_node_is_null(arg) && position >= 0) {
      const int at = position - (method && site.through_attribute ? 1 : 0) + site.leading;
      if (at >= 0) arg = positional_arg(site.args, static_cast<uint32_t>(at));
    }
    if (!ts_node_is_null(arg)) out.push_back(Binding{arg, site.scope});
  }
  return out;
}

// The modules an expression may hold or build, gathered into `sink`.
void Extractor::module_elements(TSNode e, int scope, int depth, ModuleSink& sink,
                                std::set<std::tuple<uint32_t, uint32_t, int>>& seen) {
  if (ts_node_is_null(e) || depth > kMaxEvalDepth) return;
  if (!seen.insert({ts_node_start_byte(e), ts_node_end_byte(e), scope}).second) return;
  const auto recurse = [&](TSNode n, int s) { module_elements(n, s, depth + 1, sink, seen); };
  const auto add_class = [&](int ci) {
    if (std::find(sink.classes.begin(), sink.classes.end(), ci) == sink.classes.end()) sink.classes.push_back(ci);
  };
  // A torch module held (not a container: its elements are followed instead).
  const auto add_child = [&](const std::string& path) {
    if (path.rfind("torch.", 0) == 0 && !module_container(path) &&
        std::find(sink.children.begin(), sink.children.end(), path) == sink.children.end())
      sink.children.push_back(path);
  };
  const std::string_view t = ts::type(e);
  if (t == "list" || t == "tuple" || t == "argument_list" || t == "expression_list") {
    for (TSNode item : ts::named_children(e))
      recurse(ts::is(item, "keyword_argument") ? ts::field(item, "value") : item, scope);
    return;
  }
  if (t == "dictionary") {  // nn.ModuleDict({"a": Block(), ...})
    for (TSNode pair : ts::named_children(e))
      if (ts::is(pair, "pair")) recurse(ts::field(pair, "value"), scope);
    return;
  }
  if (t == "list_splat" || t == "dictionary_splat" || t == "parenthesized_expression") {
    recurse(ts::named_child(e, 0), scope);
    return;
  }
  if (t == "list_comprehension" || t == "generator_expression") {
    recurse(ts::field(e, "body"), scope);
    return;
  }
  if (t == "conditional_expression") {  // A() if flag else B(): either may be held
    recurse(ts::named_child(e, 0), scope);
    recurse(ts::named_child(e, 2), scope);
    return;
  }
  if (t == "identifier") {
    const std::string name(ts::text(e, src_));
    const Found f = find_name(name, scope);
    if (f.k == Found::K::Binding && f.bindings) {
      for (const Binding& b : *f.bindings)
        if (!ts_node_is_null(b.expr)) recurse(b.expr, b.scope);
      for (const ContainerFill& fill : container_fills_)
        if (!fill.dead && fill.scope == f.scope && fill.name == name) recurse(fill.args, fill.scope);
      return;
    }
    if (f.k == Found::K::Param) {
      for (const Binding& b : param_arguments(f.scope, name)) recurse(b.expr, b.scope);
      return;
    }
  }
  if (t == "attribute") {  // self.<attr>: what it was bound to, and what was appended to it
    const Value owner = eval(ts::field(e, "object"), scope, depth + 1);
    if (owner.k == Value::K::Self && owner.index >= 0) {
      const std::string attr(ts::text(ts::field(e, "attribute"), src_));
      if (auto it = classes_[owner.index].self_attrs.find(attr); it != classes_[owner.index].self_attrs.end())
        for (const Binding& b : it->second)
          if (!ts_node_is_null(b.expr)) recurse(b.expr, b.scope);
      for (const AttrFill& fill : attr_fills_)
        if (!fill.dead && fill.class_index == owner.index && fill.attr == attr) recurse(fill.args, fill.scope);
      return;
    }
  }
  if (t == "call") {
    TSNode fn = ts::field(e, "function");
    const Value callee = eval(fn, scope, depth + 1);
    if (callee.k == Value::K::Path && module_container(callee.path)) {
      recurse(ts::field(e, "arguments"), scope);  // a container nested in a container
      return;
    }
    if (callee.k == Value::K::Function) {  // a helper: what it returns
      if (auto it = return_exprs_.find(callee.index); it != return_exprs_.end())
        for (const Binding& r : it->second) recurse(r.expr, r.scope);
      return;
    }
    if (callee.k == Value::K::Param && ts::is(fn, "identifier")) {  // block(...): the class handed in
      const Found f = find_name(std::string(ts::text(fn, src_)), scope);
      if (f.k == Found::K::Param)
        for (const Binding& b : param_arguments(f.scope, callee.path)) {
          const Value cls = eval(b.expr, b.scope, depth + 1);
          if (cls.k == Value::K::Class) {
            add_class(cls.index);
          } else if (cls.k == Value::K::Path && class_like(cls.path)) {
            add_child(cls.path);
          }
        }
      return;
    }
  }
  const Value v = eval(e, scope, depth + 1);
  if (v.k != Value::K::Instance) return;
  if (v.index >= 0) {
    add_class(v.index);
  } else {
    add_child(v.path);
  }
}

// What the container called as `fn` holds: `self.blocks`, `self.blocks[i]`, or a loop variable bound
// to `self.blocks`.
void Extractor::container_children(TSNode fn, int scope, ModuleSink& sink) {
  TSNode target = fn;
  while (ts::is(target, "subscript")) target = ts::field(target, "value");
  std::set<std::tuple<uint32_t, uint32_t, int>> seen;
  module_elements(target, scope, 0, sink, seen);
}

std::vector<Value> Extractor::iterated_kernels(TSNode iterable, int scope, int depth) {
  std::vector<Value> out;
  if (ts_node_is_null(iterable) || depth > kMaxEvalDepth) return out;
  const auto add = [&](const Value& v) {
    if (v.k != Value::K::Kernel && !kernel_function(v)) return;
    for (const Value& o : out)
      if (o.k == v.k && o.index == v.index && o.path == v.path) return;
    out.push_back(v);
  };
  const std::string_view t = ts::type(iterable);
  if (t == "parenthesized_expression") return iterated_kernels(ts::named_child(iterable, 0), scope, depth + 1);
  if (t == "list" || t == "tuple" || t == "set") {
    for (TSNode e : ts::named_children(iterable)) {
      // (name, kernel) pairs: `for name, k in (("relu", relu_kernel), ...)` binds each name to either.
      if (ts::is(e, "tuple") || ts::is(e, "list") || ts::is(e, "parenthesized_expression")) {
        for (const Value& v : iterated_kernels(e, scope, depth + 1)) add(v);
      } else if (!ts::is(e, "comment")) {
        add(eval(e, scope, depth + 1));
      }
    }
    return out;
  }
  if (t == "dictionary") {
    for (TSNode pair : ts::named_children(iterable))
      if (ts::is(pair, "pair")) add(eval(ts::field(pair, "value"), scope, depth + 1));
    return out;
  }
  if (t == "call") {
    const TSNode fn = ts::field(iterable, "function");
    const TSNode args = ts::field(iterable, "arguments");
    if (ts::is(fn, "attribute")) {
      const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
      if (method == "values" || method == "items") return iterated_kernels(ts::field(fn, "object"), scope, depth + 1);
      return out;
    }
    const Value target = eval(fn, scope, depth + 1);
    static const std::set<std::string> kWalks = {"builtins.enumerate", "builtins.zip",   "builtins.reversed",
                                                 "builtins.list",      "builtins.tuple", "builtins.sorted"};
    if (target.k == Value::K::Path && kWalks.count(target.path))
      for (TSNode a : ts::named_children(args))
        if (!ts::is(a, "keyword_argument") && !ts::is(a, "comment"))
          for (const Value& v : iterated_kernels(a, scope, depth + 1)) add(v);
    return out;
  }
  if (t == "identifier") {
    for (const Binding& c : element_candidates(iterable, scope)) add(eval(c.expr, c.scope, depth + 1));
    // A name bound to a dict literal: element_candidates gives its values.
  }
  return out;
}

TSNode Extractor::iterated_by(TSNode use, int scope) const {
  if (!ts::is(use, "identifier")) return TSNode{};
  const Found f = find_name(std::string(ts::text(use, src_)), scope);
  if (f.k != Found::K::Binding || !f.bindings || f.bindings->empty()) return TSNode{};
  const Binding& b = f.scope == scope ? reaching_binding(*f.bindings, use) : f.bindings->back();
  return ts_node_is_null(b.expr) ? b.iterated : TSNode{};
}

void Extractor::finish_containers() {
  for (const PendingContainer& p : pending_containers_) {
    ModuleSink sink;
    container_children(p.fn, p.scope, sink);
    for (int ci : sink.classes)
      for (const char* m : {"forward", "__call__"}) {
        const Value target = class_member(ci, m, 0, ReceiverKind::Value);
        if (target.k == Value::K::Function) add_edge(fn_of(p.scope), target.index, edge_dead(p.guard));
      }
    // The container's call is a call of each torch module it holds, here.
    const Call container = facts_.calls[p.call];
    for (const std::string& child : sink.children) {
      Call cc = container;
      cc.resolved = child;
      cc.method = last_component(child);
      call_start_.push_back(p.start);
      facts_.calls.push_back(std::move(cc));
    }
  }
}

}  // namespace kgate::python::detail
