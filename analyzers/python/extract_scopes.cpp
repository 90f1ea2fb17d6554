// Extractor, pass 1 (scopes, functions, classes, bindings, imports) and the harness profile's choice and entries.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/python/kernel_languages.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

void Extractor::add_function(TSNode def, TSNode name_node, int scope, int class_index, FunctionKind kind,
                             const std::vector<TSNode>& decorators) {
  Function fn;
  fn.kind = kind;
  fn.name = kind == FunctionKind::Lambda ? "<lambda>" : std::string(ts::text(name_node, src_));
  std::string prefix;
  if (class_index >= 0) {
    prefix = classes_[class_index].name;
    fn.class_name = prefix;
  } else if (scopes_[scope].function >= 0) {
    prefix = facts_.functions[scopes_[scope].function].qualname;
  }
  fn.qualname = prefix.empty() ? fn.name : prefix + "." + fn.name;
  fn.parent = scopes_[scope].function;
  fn.span = ts::span(ts_node_is_null(name_node) ? def : name_node);
  int index = static_cast<int>(facts_.functions.size());
  facts_.functions.push_back(fn);
  function_nodes_.push_back(def);
  decorator_nodes_.push_back(decorators);

  Scope s;
  s.function = index;
  s.parent = scope;
  s.class_index = class_index;
  TSNode params = ts::field(def, "parameters");
  uint32_t n = ts::named_count(params);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode p = ts::named_child(params, i);
    TSNode id = p;
    if (!ts::is(p, "identifier")) {
      id = ts::field(p, "name");
      if (ts_node_is_null(id)) id = ts::named_child(p, 0);
    }
    if (!ts::is(id, "identifier")) continue;
    std::string pname(ts::text(id, src_));
    if (i == 0 && class_index >= 0 && kind != FunctionKind::Lambda) {
      bool is_static = false;
      for (TSNode d : decorators)
        if (ts::text(d, src_).find("staticmethod") != std::string_view::npos) is_static = true;
      if (!is_static) s.self_name = pname;
    }
    s.params.insert(pname);
    s.param_nodes[pname] = p;
    facts_.functions[index].params.push_back(pname);
  }
  int scope_index = static_cast<int>(scopes_.size());
  scopes_.push_back(std::move(s));
  function_scope_.push_back(scope_index);

  if (class_index >= 0 && kind != FunctionKind::Lambda) {
    classes_[class_index].methods[facts_.functions[index].name] = index;
  } else if (kind != FunctionKind::Lambda) {
    scopes_[scope].local_functions[facts_.functions[index].name] = index;
  }
  TSNode body = ts::field(def, "body");
  collect(body, scope_index, -1);
}

void Extractor::bind_target(TSNode target, TSNode value, int scope, int class_index) {
  std::string_view t = ts::type(target);
  if (t == "identifier") {
    std::string name(ts::text(target, src_));
    // `global X; X = v` rebinds the module's X.
    int into = scopes_[scope].globals_declared.count(name) ? 0 : scope;
    scopes_[into].bindings[name].push_back(Binding{value, scope});
  } else if (t == "attribute") {
    TSNode obj = ts::field(target, "object");
    const Scope& s = scopes_[scope];
    if (ts::is(obj, "identifier") && !s.self_name.empty() && ts::text(obj, src_) == s.self_name && s.class_index >= 0) {
      classes_[s.class_index].self_attrs[std::string(ts::text(ts::field(target, "attribute"), src_))].push_back(
          Binding{value, scope});
    }
  } else if (t == "pattern_list" || t == "tuple_pattern" || t == "tuple" || t == "list_pattern" || t == "list") {
    // `a_, b_ = f(a), f(b)` binds element by element when both sides have the same length;
    // `lin, act = self.layers` binds each name to the module's attribute (an element of a container is
    // called as its children are); anything else (unpacking a call's result) is bound to nothing we follow.
    uint32_t n = ts::named_count(target);
    const bool paired = !ts_node_is_null(value) &&
                        (ts::is(value, "expression_list") || ts::is(value, "tuple") || ts::is(value, "list")) &&
                        ts::named_count(value) == n;
    const Scope& s = scopes_[scope];
    const bool module_attr = !ts_node_is_null(value) && ts::is(value, "attribute") && !s.self_name.empty() &&
                             ts::text(ts::field(value, "object"), src_) == s.self_name;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode element = ts::named_child(target, i);
      TSNode bound =
          paired ? ts::named_child(value, i) : (module_attr && ts::is(element, "identifier") ? value : TSNode{});
      bind_target(element, bound, scope, class_index);
      if (ts_node_is_null(bound) && ts::is(element, "identifier")) {
        const std::string name(ts::text(element, src_));
        scopes_[scopes_[scope].globals_declared.count(name) ? 0 : scope].bindings[name].back().unpacked = value;
      }
      // `self.finish, _ = Table[name].value`: the attribute is unpacked from that value too.
      if (ts_node_is_null(bound) && ts::is(element, "attribute") && s.class_index >= 0 && !s.self_name.empty() &&
          ts::text(ts::field(element, "object"), src_) == s.self_name)
        classes_[s.class_index]
            .self_attrs[std::string(ts::text(ts::field(element, "attribute"), src_))]
            .back()
            .unpacked = value;
    }
  }
}

void Extractor::mark_iterated(TSNode target, TSNode iterable, int scope) {
  if (ts::is(target, "identifier")) {
    const std::string name(ts::text(target, src_));
    auto& bindings = scopes_[scopes_[scope].globals_declared.count(name) ? 0 : scope].bindings[name];
    if (!bindings.empty() && ts_node_is_null(bindings.back().expr)) bindings.back().iterated = iterable;
    return;
  }
  if (ts::is(target, "pattern_list") || ts::is(target, "tuple_pattern") || ts::is(target, "list_pattern"))
    for (TSNode element : ts::named_children(target)) mark_iterated(element, iterable, scope);
}

void Extractor::collect_import(TSNode node, int scope) {
  Scope& s = scopes_[scope];
  if (ts::is(node, "import_statement")) {
    uint32_t n = ts::named_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode item = ts::named_child(node, i);
      if (ts::is(item, "dotted_name")) {
        std::string full(ts::text(item, src_));
        std::string top = full.substr(0, full.find('.'));
        s.imports[top] = top;
      } else if (ts::is(item, "aliased_import")) {
        s.imports[std::string(ts::text(ts::field(item, "alias"), src_))] =
            std::string(ts::text(ts::field(item, "name"), src_));
      }
    }
  } else {  // import_from_statement
    std::string module(ts::text(ts::field(node, "module_name"), src_));
    uint32_t n = ts::named_count(node);
    TSNode module_node = ts::field(node, "module_name");
    for (uint32_t i = 0; i < n; ++i) {
      TSNode item = ts::named_child(node, i);
      if (ts_node_eq(item, module_node)) continue;
      if (ts::is(item, "dotted_name")) {
        std::string name(ts::text(item, src_));
        s.imports[name] = module + "." + name;
      } else if (ts::is(item, "aliased_import")) {
        s.imports[std::string(ts::text(ts::field(item, "alias"), src_))] =
            module + "." + std::string(ts::text(ts::field(item, "name"), src_));
      }
    }
  }
}

// A class of the file given an attribute from outside its body (`Cls.attr = v`, `setattr(Cls, "attr",
// v)`): bound as the class body would bind it. `name` is the attribute node or a string constant. A
// function of the file given one (`helper.op = torch.relu`) keeps it in function_attrs_, which
// `helper.op` reads.
void Extractor::add_class_attribute(TSNode owner, TSNode name, TSNode value, int scope) {
  if (!ts::is(owner, "identifier") || ts_node_is_null(value)) return;
  const Found f = find_name(std::string(ts::text(owner, src_)), scope);
  std::string attr;
  if (ts::is(name, "identifier")) {
    attr = std::string(ts::text(name, src_));
  } else if (ts::is(name, "string")) {
    if (auto folded = folder_.fold_string(name)) attr = folded->text;
  }
  // `cls.act = staticmethod(torch.relu)` in a function whose parameter is cls (a class decorator).
  if (f.k == Found::K::Param && scopes_[f.scope].function >= 0 && !attr.empty()) {
    param_attrs_[scopes_[f.scope].function][f.path + "." + attr].push_back(Binding{value, scope});
    return;
  }
  if ((f.k != Found::K::Class && f.k != Found::K::Function) || f.index < 0) return;
  if (f.k == Found::K::Function) {
    if (!attr.empty()) function_attrs_[f.index][attr].push_back(Binding{value, scope});
    return;
  }
  // Rebinding a method the body defines, or a dunder (`ModelNew.__call__ = ...`), is the entry
  // bindings' to judge (extract_entry_bindings.cpp), not a new attribute.
  if (attr.empty() || classes_[f.index].methods.count(attr) || attr.rfind("__", 0) == 0) return;
  classes_[f.index].self_attrs[attr].push_back(Binding{value, scope});
  classes_[f.index].class_attrs[attr].push_back(Binding{value, scope});
}

void Extractor::collect(TSNode node, int scope, int class_index) {
  if (ts_node_is_null(node)) return;
  std::string_view t = ts::type(node);
  if (t == "decorated_definition") {
    std::vector<TSNode> decorators;
    uint32_t n = ts::named_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts::named_child(node, i);
      if (ts::is(c, "decorator")) decorators.push_back(ts::named_child(c, 0));
    }
    TSNode def = ts::field(node, "definition");
    // A lambda in a decorator (`@lambda f: torch.relu`, `@deco(lambda x: x)`) is a function of the file,
    // as anywhere else.
    for (TSNode d : decorators) collect(d, scope, class_index);
    if (ts::is(def, "function_definition")) {
      add_function(def, ts::field(def, "name"), scope, class_index, FunctionKind::Python, decorators);
    } else {
      const size_t first_class = classes_.size();
      collect(def, scope, class_index);
      if (ts::is(def, "class_definition") && classes_.size() > first_class)
        classes_[first_class].decorator_nodes = decorators;
    }
    return;
  }
  if (t == "function_definition") {
    add_function(node, ts::field(node, "name"), scope, class_index, FunctionKind::Python, {});
    return;
  }
  if (t == "lambda") {
    add_function(node, TSNode{}, scope, -1, FunctionKind::Lambda, {});
    return;
  }
  if (t == "class_definition") {
    ClassInfo info;
    info.name = std::string(ts::text(ts::field(node, "name"), src_));
    info.node = node;
    info.scope = scope;
    TSNode supers = ts::field(node, "superclasses");
    uint32_t n = ts::named_count(supers);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode b = ts::named_child(supers, i);
      if (!ts::is(b, "keyword_argument"))
        info.base_nodes.push_back(b);
      else if (ts::text(ts::field(b, "name"), src_) == "metaclass")
        info.metaclass = ts::field(b, "value");
    }
    int index = static_cast<int>(classes_.size());
    classes_.push_back(std::move(info));
    scopes_[scope].local_classes[classes_[index].name] = index;
    collect(ts::field(node, "body"), scope, index);
    return;
  }
  if (t == "import_statement" || t == "import_from_statement") {
    collect_import(node, scope);
    return;
  }
  if (t == "global_statement" || t == "nonlocal_statement") {
    uint32_t n = ts::named_count(node);
    for (uint32_t i = 0; i < n; ++i)
      scopes_[scope].globals_declared.insert(std::string(ts::text(ts::named_child(node, i), src_)));
    return;
  }
  if (t == "assignment") {
    TSNode left = ts::field(node, "left");
    if (ts::is(left, "subscript") && ts::is(ts::field(left, "value"), "identifier"))
      mutated_names_.insert(std::string(ts::text(ts::field(left, "value"), src_)));
    TSNode right = ts::field(node, "right");
    // cache[key] = build(...): what a container holds, by the container's text (self._kernels, _K).
    if (ts::is(left, "subscript") && !ts::is(right, "assignment"))
      element_bindings_[std::string(ts::text(ts::field(left, "value"), src_))].push_back(Binding{right, scope});
    // a = b = value: the right side is another assignment.
    TSNode value = right;
    while (ts::is(value, "assignment")) value = ts::field(value, "right");
    if (class_index < 0 || scopes_[scope].function >= 0) bind_target(left, value, scope, class_index);
    // A class attribute that holds a callable (`mm = staticmethod(torch.mm)`, `act = F.gelu`) is what
    // `self.mm` calls; other class constants stay unbound, as before.
    if (class_index >= 0 && scopes_[scope].function < 0 && ts::is(left, "identifier") && !ts_node_is_null(value)) {
      const bool callable_value =
          ts::is(value, "attribute") || ts::is(value, "identifier") ||
          (ts::is(value, "call") && (ts::text(ts::field(value, "function"), src_) == "staticmethod" ||
                                     ts::text(ts::field(value, "function"), src_) == "classmethod"));
      if (callable_value)
        classes_[class_index].self_attrs[std::string(ts::text(left, src_))].push_back(Binding{value, scope});
      classes_[class_index].class_attrs[std::string(ts::text(left, src_))].push_back(Binding{value, scope});
    }
    // `ModelNew.act = staticmethod(torch.relu)` outside the class body: a class attribute like one
    // the body binds, so `self.act` reads it.
    if (ts::is(left, "attribute") && !ts_node_is_null(value))
      add_class_attribute(ts::field(left, "object"), ts::field(left, "attribute"), value, scope);
    if (ts::is(right, "assignment")) {
      TSNode inner_left = ts::field(right, "left");
      bind_target(inner_left, value, scope, class_index);
    }
  } else if (t == "call") {
    // self.add_module("proj", nn.Linear(...)), self.register_module(...), setattr(self, "proj", ...):
    // a child registered by name is `self.proj`, like an assignment.
    TSNode fn = ts::field(node, "function");
    {
      const Scope& s = scopes_[scope];
      TSNode args = ts::field(node, "arguments");
      const std::string_view callee = ts::text(fn, src_);
      const bool on_self = !s.self_name.empty() && s.class_index >= 0;
      TSNode name_arg{}, value_arg{};
      if (on_self && ts::is(fn, "attribute") && ts::text(ts::field(fn, "object"), src_) == s.self_name) {
        const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
        if (method == "add_module" || method == "register_module" || method == "register_buffer" ||
            method == "register_parameter") {
          name_arg = positional_arg(args, 0);
          value_arg = positional_arg(args, 1);
        }
      } else if (on_self && (callee == "setattr" || callee == "object.__setattr__") &&
                 ts::text(positional_arg(args, 0), src_) == s.self_name) {
        name_arg = positional_arg(args, 1);
        value_arg = positional_arg(args, 2);
      }
      // act.register(torch.Tensor, g) on a function of the file (functools.singledispatch): calling act
      // may call g.
      // Cls.act.register(T, g) under functools.singledispatchmethod: the class's method act.
      if (ts::is(fn, "attribute") && ts::text(ts::field(fn, "attribute"), src_) == "register" &&
          !ts_node_is_null(positional_arg(args, 1))) {
        const TSNode object = ts::field(fn, "object");
        int target = -1;
        if (ts::is(object, "identifier")) {
          if (const Found f = find_name(std::string(ts::text(object, src_)), scope); f.k == Found::K::Function)
            target = f.index;
        } else if (ts::is(object, "attribute") && ts::is(ts::field(object, "object"), "identifier")) {
          const Found c = find_name(std::string(ts::text(ts::field(object, "object"), src_)), scope);
          if (c.k == Found::K::Class && c.index >= 0)
            if (auto m = classes_[c.index].methods.find(std::string(ts::text(ts::field(object, "attribute"), src_)));
                m != classes_[c.index].methods.end())
              target = m->second;
        }
        if (target >= 0) registered_[target].push_back(Binding{positional_arg(args, 1), scope});
      }
      // setattr(ModelNew, "act", f) and type.__setattr__(ModelNew, "act", f): the same as an assignment.
      if (!on_self && (callee == "setattr" || callee == "type.__setattr__" || callee == "object.__setattr__"))
        add_class_attribute(positional_arg(args, 0), positional_arg(args, 1), positional_arg(args, 2), scope);
      // self.__dict__.update(act=f): each keyword is an attribute of self, like `self.act = f`.
      if (on_self && ts::is(fn, "attribute") && ts::text(ts::field(fn, "attribute"), src_) == "update" &&
          ts::text(ts::field(fn, "object"), src_) == s.self_name + ".__dict__")
        for (TSNode kw : ts::named_children(args))
          if (ts::is(kw, "keyword_argument"))
            classes_[s.class_index].self_attrs[std::string(ts::text(ts::field(kw, "name"), src_))].push_back(
                Binding{ts::field(kw, "value"), scope});
      if (!ts_node_is_null(name_arg) && !ts_node_is_null(value_arg) && ts::is(name_arg, "string")) {
        if (auto name = folder_.fold_string(name_arg))
          classes_[s.class_index].self_attrs[name->text].push_back(Binding{value_arg, scope});
      }
    }
    // parts.append(...): a container filled at run time is not the literal it started as.
    if (ts::is(fn, "attribute") && ts::is(ts::field(fn, "object"), "identifier") &&
        container_write_methods().count(std::string(ts::text(ts::field(fn, "attribute"), src_))))
      mutated_names_.insert(std::string(ts::text(ts::field(fn, "object"), src_)));
  } else if (t == "augmented_assignment") {
    // `x += y`: x is no longer the constant it was bound to (a flag, a source string).
    bind_target(ts::field(node, "left"), TSNode{}, scope, class_index);
    if (TSNode left = ts::field(node, "left"); ts::is(left, "identifier")) {
      const std::string name(ts::text(left, src_));
      scopes_[scopes_[scope].globals_declared.count(name) ? 0 : scope].bindings[name].back().augmented = node;
    }
  } else if (t == "named_expression") {
    bind_target(ts::field(node, "name"), ts::field(node, "value"), scope, class_index);
  } else if (t == "for_statement" || t == "for_in_clause") {
    // `for layer in self.layers:` binds each element of a module container: calling `layer` is
    // calling the container's children (record_call). Any other iterable binds to nothing we follow.
    // `for i, layer in enumerate(self.layers):` binds `layer` the same way.
    TSNode right = ts::field(node, "right");
    TSNode left = ts::field(node, "left");
    const auto self_attr = [&](TSNode e) {
      return ts::is(e, "attribute") && ts::is(ts::field(e, "object"), "identifier") &&
             !scopes_[scope].self_name.empty() && ts::text(ts::field(e, "object"), src_) == scopes_[scope].self_name;
    };
    if (ts::is(right, "call") && ts::text(ts::field(right, "function"), src_) == "enumerate" &&
        (ts::is(left, "pattern_list") || ts::is(left, "tuple_pattern")) && ts::named_count(left) == 2 &&
        ts::is(ts::named_child(left, 1), "identifier") && self_attr(positional_arg(ts::field(right, "arguments"), 0))) {
      bind_target(ts::named_child(left, 0), TSNode{}, scope, class_index);
      bind_target(ts::named_child(left, 1), positional_arg(ts::field(right, "arguments"), 0), scope, class_index);
    } else {
      const bool container = self_attr(right) && ts::is(left, "identifier");
      bind_target(left, container ? right : TSNode{}, scope, class_index);
      // Otherwise each name the loop binds is an element of the iterable (a table of kernels or of
      // library functions walked by the loop: extract_callees.cpp, Extractor::iterated_kernels).
      if (!container) mark_iterated(left, right, scope);
    }
  } else if (t == "as_pattern_target") {
    bind_target(ts::named_child(node, 0), TSNode{}, scope, class_index);
    // `with Ctx() as f:` binds f to what Ctx().__enter__() returns (eval_binding follows a class of the file).
    if (TSNode target = ts::named_child(node, 0);
        ts::is(target, "identifier") && ts::is(ts::parent(node), "as_pattern")) {
      const std::string name(ts::text(target, src_));
      auto& bindings = scopes_[scopes_[scope].globals_declared.count(name) ? 0 : scope].bindings[name];
      if (!bindings.empty()) bindings.back().entered = ts::named_child(ts::parent(node), 0);
    }
  } else if (t == "return_statement" && scopes_[scope].function >= 0 && ts::named_count(node) > 0) {
    return_exprs_[scopes_[scope].function].push_back(Binding{ts::named_child(node, 0), scope});
  } else if (t == "yield" && scopes_[scope].function >= 0 && ts::named_count(node) > 0) {
    // What iterating a generator gives (`for f in ops(): f(x)`, next(ops())).
    yield_exprs_[scopes_[scope].function].push_back(Binding{ts::named_child(node, 0), scope});
  }
  for (TSNode child : ts::named_children(node)) collect(child, scope, class_index);
}

void Extractor::classify_functions() {
  for (size_t i = 0; i < facts_.functions.size(); ++i) {
    int scope = scopes_[function_scope_[i]].parent;
    for (TSNode d : decorator_nodes_[i]) {
      TSNode target = ts::is(d, "call") ? ts::field(d, "function") : d;
      Value v = eval(target, scope, 1);
      std::string path = value_path(v, target);
      facts_.functions[i].decorators.push_back(path);
      if (path == "triton.jit" || path == "triton.autotune" || path == "triton.heuristics" ||
          path == "triton.runtime.jit" || path == "triton.runtime.autotune")
        facts_.functions[i].kind = FunctionKind::TritonJit;
      else if (!dsl_kernel_decorator(path).empty() && facts_.functions[i].kind == FunctionKind::Python)
        facts_.functions[i].kind = FunctionKind::DslKernel;
    }
  }
  // kernel = triton.jit(fn)
  for (auto& [name, bindings] : scopes_[0].bindings) {
    for (const Binding& b : bindings) {
      if (!ts::is(b.expr, "call")) continue;
      Value callee = eval(ts::field(b.expr, "function"), 0, 1);
      if (callee.k == Value::K::Path && callee.path == "triton.jit") {
        Value target = eval(positional_arg(ts::field(b.expr, "arguments"), 0), 0, 1);
        if (target.k == Value::K::Function) facts_.functions[target.index].kind = FunctionKind::TritonJit;
      }
    }
  }
}

// A subclass of torch.nn.Module, directly or through local classes.
bool Extractor::is_nn_module(int ci, int depth) {
  if (ci < 0 || depth > 8) return false;
  for (TSNode b : classes_[ci].base_nodes) {
    Value v = eval(b, classes_[ci].scope, 1);
    if (v.k == Value::K::Class && is_nn_module(v.index, depth + 1)) return true;
    const std::string path = value_path(v, b);
    if (path == "torch.nn.Module" || path == "torch.nn.modules.module.Module") return true;
  }
  return false;
}

// The class a module-level name is bound to: `class X`, or `X = Impl` for a local class.
// Only names and attributes are evaluated here: evaluating a call (load_inline) registers what it
// builds, and this runs over the module's bindings in hash order, before the walk.
int Extractor::module_class_named(const std::string& name) {
  if (auto it = scopes_[0].local_classes.find(name); it != scopes_[0].local_classes.end()) return it->second;
  if (auto b = scopes_[0].bindings.find(name); b != scopes_[0].bindings.end() && !b->second.empty()) {
    TSNode expr = b->second.back().expr;
    if (ts_node_is_null(expr)) return -1;
    // `ModelNew = _build()`: the class a factory of this file returns (a class it defines inside).
    if (ts::is(expr, "call")) {
      const Value factory = eval(ts::field(expr, "function"), 0, 1);
      if (factory.k != Value::K::Function) return -1;
      const auto returns = return_exprs_.find(factory.index);
      if (returns == return_exprs_.end()) return -1;
      int found = -1;
      for (const Binding& r : returns->second) {
        const Value v = eval(r.expr, r.scope, 1);
        if (v.k != Value::K::Class || (found >= 0 && found != v.index)) return -1;
        found = v.index;
      }
      return found;
    }
    if (!(ts::is(expr, "identifier") || ts::is(expr, "attribute"))) return -1;
    Value v = eval(expr, 0, 1);
    if (v.k == Value::K::Class) return v.index;
  }
  return -1;
}

// The function a module-level name calls: `def name`, `name = other_function`, or a wrapper of a
// local function (`custom_kernel = torch.compile(_custom_kernel)`, functools.partial(f, ...)).
int Extractor::module_function_named(const std::string& name) {
  if (auto it = scopes_[0].local_functions.find(name); it != scopes_[0].local_functions.end()) return it->second;
  auto b = scopes_[0].bindings.find(name);
  if (b == scopes_[0].bindings.end() || b->second.empty() || ts_node_is_null(b->second.back().expr)) return -1;
  TSNode expr = b->second.back().expr;
  if (ts::is(expr, "identifier") || ts::is(expr, "attribute")) {
    Value v = eval(expr, 0, 1);
    if (v.k == Value::K::Function) return v.index;
  } else if (ts::is(expr, "call")) {  // the wrapped function only: the call itself is not evaluated
    TSNode first = positional_arg(ts::field(expr, "arguments"), 0);
    if (!ts_node_is_null(first) && (ts::is(first, "identifier") || ts::is(first, "attribute"))) {
      Value wrapped = eval(first, 0, 1);
      if (wrapped.k == Value::K::Function) return wrapped.index;
    }
  }
  return -1;
}

// Kernels the module defines or compiles itself: Triton jit functions, or a module-level binding
// of a kernel compiler's result (load_inline / load; the kernel languages of issue 19 add theirs).
bool Extractor::defines_own_kernels() {
  for (const Function& f : facts_.functions)
    if (f.kind == FunctionKind::TritonJit || f.kind == FunctionKind::DslKernel ||
        is_kernel_factory(&f - facts_.functions.data()))
      return true;
  for (const auto& [name, bindings] : scopes_[0].bindings)
    for (const Binding& b : bindings) {
      if (ts_node_is_null(b.expr) || !ts::is(b.expr, "call")) continue;
      const Value callee = eval(ts::field(b.expr, "function"), 0, 1);
      if (callee.k == Value::K::Path &&
          (callee.path == "torch.utils.cpp_extension.load_inline" || callee.path == "torch.utils.cpp_extension.load" ||
           kernel_compiler(callee.path)))
        return true;
    }
  return src_.find("load_inline(") != std::string_view::npos;
}

// The harness profile (rules/harnesses), from what the module offers at its top level.
void Extractor::choose_harness() {
  ModuleOutline outline;
  outline.python = true;
  outline.file_name = std::filesystem::path(file_.path).filename().string();
  for (const auto& [name, ci] : scopes_[0].local_classes) {
    outline.classes.push_back(name);
    if (is_nn_module(ci)) outline.module_class = true;
  }
  for (const auto& [name, bindings] : scopes_[0].bindings)
    if (!scopes_[0].local_classes.count(name) && module_class_named(name) >= 0) outline.classes.push_back(name);
  for (const auto& [name, fi] : scopes_[0].local_functions)
    if (facts_.functions[fi].kind == FunctionKind::Python) outline.functions.push_back(name);
  for (const auto& [name, bindings] : scopes_[0].bindings)
    if (!scopes_[0].local_functions.count(name) && !scopes_[0].local_classes.count(name) &&
        module_function_named(name) >= 0)
      outline.functions.push_back(name);
  // A name the module offers as a callable that is not its own function: bound to a library function
  // (`custom_kernel = torch.relu`, `from torch.nn.functional import relu as custom_kernel`), a lambda or
  // what a call returns. The harness would call it, so it selects the profile like a def does, and
  // note_entry_function_bindings makes the binding a finding.
  for (const auto& [name, bindings] : scopes_[0].bindings)
    if (!scopes_[0].local_functions.count(name) && !scopes_[0].local_classes.count(name) &&
        module_function_named(name) < 0 && offered_callable(name))
      outline.functions.push_back(name);
  for (const auto& [alias, target] : scopes_[0].imports)
    if (!scopes_[0].bindings.count(alias) && library_import(target)) outline.functions.push_back(alias);
  // A profile's entry class bound to what a call or a lambda makes that is no class of this file
  // (`ModelNew = type("ModelNew", (nn.Module,), {...})`, a factory the gate cannot follow): the harness
  // builds it, so it selects the profile as a class statement does, and find_entries reports it.
  for (const HarnessProfile& profile : (harness_.set ? *harness_.set : default_harnesses()).profiles())
    for (const std::string& name : profile.entry_classes)
      if (opaque_entry_class(name)) outline.classes.push_back(name);
  std::sort(outline.classes.begin(), outline.classes.end());
  outline.classes.erase(std::unique(outline.classes.begin(), outline.classes.end()), outline.classes.end());
  std::sort(outline.functions.begin(), outline.functions.end());
  outline.functions.erase(std::unique(outline.functions.begin(), outline.functions.end()), outline.functions.end());
  outline.own_kernels = defines_own_kernels();
  profile_ = harness_.select(outline);
  // A file no profile recognises but that a harness names as its own (GPU MODE's reference.py and
  // task.py): the harness's file, not a candidate.
  bool reference = profile_ && profile_->names_reference(outline.file_name);
  if (!profile_) {
    profile_ = harness_.naming_reference(outline.file_name);
    reference = profile_ != nullptr;
  }
  if (!profile_) return;
  facts_.harness = profile_->name;
  facts_.harness_without_entry = std::string(to_string(profile_->without_entry));
  facts_.harness_reference = reference;
}

// The module-level bindings of `name` below `node`: class and def statements and assignments, also
// inside if, try, with, loop and match statements (which bind at module scope too, conditionally).
void Extractor::module_bindings_of(TSNode node, const std::string& name, bool conditional,
                                   std::vector<FactSet::EntryDefinition>& out) const {
  for (TSNode child : ts::named_children(node)) {
    const std::string_view t = ts::type(child);
    TSNode def = t == "decorated_definition" ? ts::field(child, "definition") : child;
    if (ts::is(def, "class_definition") || ts::is(def, "function_definition")) {
      if (ts::text(ts::field(def, "name"), src_) == name) out.push_back({name, conditional, ts::span(child)});
    } else if (t == "expression_statement") {
      for (TSNode e : ts::named_children(child))
        for (TSNode a = e; ts::is(a, "assignment"); a = ts::field(a, "right"))
          if (ts::is(ts::field(a, "left"), "identifier") && ts::text(ts::field(a, "left"), src_) == name)
            out.push_back({name, conditional, ts::span(child)});
    } else if (t == "if_statement" || t == "try_statement" || t == "with_statement" || t == "for_statement" ||
               t == "while_statement" || t == "match_statement" || t == "block" || t == "else_clause" ||
               t == "elif_clause" || t == "except_clause" || t == "finally_clause" || t == "case_clause") {
      module_bindings_of(child, name, true, out);
    }
  }
}

bool Extractor::opaque_entry_class(const std::string& name) {
  const auto b = scopes_[0].bindings.find(name);
  if (b == scopes_[0].bindings.end() || b->second.empty() || scopes_[0].local_classes.count(name)) return false;
  const TSNode expr = b->second.back().expr;
  // (A library class, `ModelNew = getattr(nn, "Sigmoid")`, is inheritance-bypass's.)
  return !ts_node_is_null(expr) && (ts::is(expr, "call") || ts::is(expr, "lambda")) && module_class_named(name) < 0 &&
         eval(expr, 0, 1).k != Value::K::Path;
}

// The entry points the profile names: methods of its model class, and its entry functions (plus
// any a task or .kgate.yaml adds). Reachability starts from these.
void Extractor::find_entries() {
  if (!profile_) return;
  for (const auto& name : profile_->entry_classes) {
    model_class_ = module_class_named(name);
    if (model_class_ >= 0) break;
  }
  // The entry class is what a call makes that the gate cannot follow: what the harness builds is
  // unknown (entry-class-replaced).
  if (model_class_ < 0)
    for (const auto& name : profile_->entry_classes) {
      if (!opaque_entry_class(name)) continue;
      const TSNode expr = scopes_[0].bindings.at(name).back().expr;
      const Value made = ts::is(expr, "call") ? eval(ts::field(expr, "function"), 0, 1) : Value{};
      record_module_binding(name,
                            made.k == Value::K::Path ? made.path : std::string(ts::text(expr, src_)).substr(0, 80),
                            expr, "@replaces-entry");
      break;
    }
  if (model_class_ >= 0) {
    for (const auto& name : profile_->entry_methods) {
      Value m = class_member(model_class_, name, 0, ReceiverKind::Self);
      if (m.k != Value::K::Function) continue;
      if (facts_.entry < 0 && name == "forward") facts_.entry = m.index;
      facts_.entries.push_back(m.index);
    }
  }
  const std::vector<std::string> functions = entry_function_names();
  for (const auto& name : functions) {
    const int fi = module_function_named(name);
    if (fi < 0) continue;
    if (std::find(facts_.entries.begin(), facts_.entries.end(), fi) == facts_.entries.end())
      facts_.entries.push_back(fi);
  }
  if (facts_.entry < 0 && !facts_.entries.empty()) facts_.entry = facts_.entries.front();
  // Several module-level bindings of the entry's name: which one the harness gets.
  std::vector<std::string> names;
  for (const auto& name : profile_->entry_classes)
    if (model_class_ >= 0 && classes_[model_class_].name == name) names.push_back(name);
  for (const auto& name : functions)
    if (module_function_named(name) >= 0) names.push_back(name);
  for (const auto& name : names) {
    std::vector<FactSet::EntryDefinition> found;
    module_bindings_of(root_, name, false, found);
    if (found.size() > 1) facts_.entry_definitions.insert(facts_.entry_definitions.end(), found.begin(), found.end());
  }
  // Output parameters of the entry functions: outputs, not inputs (receiver kind Output).
  if (!profile_->outputs.empty()) {
    facts_.output_contract = harness_.output_positions || !harness_.output_names.empty() ? "task" : "names";
    for (const auto& name : functions) {
      const int fi = module_function_named(name);
      if (fi < 0) continue;
      const auto& params = facts_.functions[fi].params;
      const auto& at = harness_.output_positions;
      for (size_t i = 0; i < params.size(); ++i)
        if (profile_->output_parameter(params[i]) || (at && i >= at->first && i < at->first + at->second) ||
            std::find(harness_.output_names.begin(), harness_.output_names.end(), params[i]) !=
                harness_.output_names.end())
          output_params_.emplace_back(fi, params[i]);
    }
  }
  // What the profile enters through, for messages: "ModelNew.forward", "custom_kernel".
  std::string entry;
  for (const auto& c : profile_->entry_classes)
    for (const auto& m : profile_->entry_methods) {
      if (m != "forward") continue;
      entry += (entry.empty() ? "" : " or ") + c + "." + m;
    }
  for (const auto& f : functions) entry += (entry.empty() ? "" : " or ") + f;
  facts_.harness_entry = entry;
}

// A parameter of the function whose scope this is, named an output by the harness profile.
bool Extractor::is_output_param(const std::string& name, int scope) const {
  const int fn = scopes_[scope].function;
  return std::any_of(output_params_.begin(), output_params_.end(), [&](const auto& o) {
    return o.first == fn && o.second == name && scopes_[scope].params.count(name);
  });
}

// One output fact per output parameter: whether the entry writes it (see OutputParam).
void Extractor::finish_outputs() {
  for (const auto& [fn, name] : output_params_) {
    OutputParam o;
    o.name = name;
    o.function = fn;
    o.written = scopes_[function_scope_[fn]].written_names.count(name) > 0;
    o.reachable = facts_.functions[fn].reachable;
    o.span = facts_.functions[fn].span;
    facts_.outputs.push_back(std::move(o));
  }
}

// Imports the profile provides (GPU MODE's task) or keeps for the harness (reference, eval).
void Extractor::mark_harness_imports() {
  if (!profile_) return;
  for (Import& im : facts_.imports) {
    std::string_view root = im.module;
    root = root.substr(0, root.find('.'));
    im.harness_allowed = profile_->allows_import(im.module) || profile_->allows_import(root);
    im.harness_forbidden =
        !im.harness_allowed && (profile_->forbids_import(im.module) || profile_->forbids_import(root));
  }
}

}  // namespace kgate::python::detail
