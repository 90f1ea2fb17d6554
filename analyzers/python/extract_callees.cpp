// Extractor, after pass 2: calls whose target is a value, not a name. A library function held in a list,
// tuple or dict, picked by a subscript, returned from a helper, chosen by a conditional, handed through
// builtins (next(iter([torch.relu]))) or passed as a parameter (`def apply(f, x): return f(x)`) is called
// at that call: a library function is a call of it there, a function of this file an edge to it. A
// computed target that holds nothing the gate can name is an unresolved call (`@computed-target`,
// judged by dynamic-lookup-unresolved): what runs there is unknown, so it is a finding, never silence.
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

namespace {

// Builtins and library containers that hand a callable on from their arguments: next(iter([f])),
// sorted([...])[0], min(...), itertools.cycle([f]), collections.deque([f]), operator.getitem(t, 0).
bool passes_callables_on(const std::string& path) {
  static const std::set<std::string> kPassing = {"builtins.next",         "builtins.iter",
                                                 "builtins.list",         "builtins.tuple",
                                                 "builtins.sorted",       "builtins.reversed",
                                                 "builtins.min",          "builtins.max",
                                                 "builtins.dict",         "builtins.set",
                                                 "builtins.filter",       "builtins.enumerate",
                                                 "builtins.zip",          "builtins.frozenset",
                                                 "itertools.cycle",       "itertools.chain",
                                                 "itertools.repeat",      "itertools.islice",
                                                 "itertools.tee",         "itertools.compress",
                                                 "itertools.dropwhile",   "itertools.takewhile",
                                                 "itertools.zip_longest", "itertools.chain.from_iterable",
                                                 "collections.deque",     "collections.OrderedDict",
                                                 "collections.ChainMap",  "collections.UserDict",
                                                 "collections.UserList",  "types.MappingProxyType",
                                                 "operator.getitem",      "builtins.vars"};
  return kPassing.count(path) > 0;
}

}  // namespace

// The key of a container that subscript assignments fill: `self.cache` by class and attribute, a name by
// the scope that binds it. Empty for anything else.
std::string Extractor::container_key(TSNode container, int scope) {
  if (ts::is(container, "attribute")) {
    const Value owner = eval(ts::field(container, "object"), scope);
    if (owner.k != Value::K::Self || owner.index < 0) return "";
    return "self#" + std::to_string(owner.index) + "." + std::string(ts::text(ts::field(container, "attribute"), src_));
  }
  if (!ts::is(container, "identifier")) return "";
  const std::string name(ts::text(container, src_));
  const Found f = find_name(name, scope);
  if (f.k != Found::K::Binding && f.k != Found::K::Global) return "";
  return std::to_string(f.scope) + ":" + name;
}

// A call target that is neither a name nor an attribute: a subscript, a call, a conditional, a literal.
bool Extractor::computed_target(TSNode fn) {
  while (ts::is(fn, "parenthesized_expression")) fn = ts::named_child(fn, 0);
  return !ts_node_is_null(fn) && !ts::is(fn, "identifier") && !ts::is(fn, "attribute");
}

void Extractor::callable_elements(TSNode e, int scope, int depth, CallableSink& sink,
                                  std::set<std::tuple<uint32_t, uint32_t, int>>& seen) {
  if (ts_node_is_null(e) || depth > kMaxEvalDepth) return;
  if (!seen.insert({ts_node_start_byte(e), ts_node_end_byte(e), scope}).second) return;
  const auto recurse = [&](TSNode n, int s) { callable_elements(n, s, depth + 1, sink, seen); };
  const auto add_function = [&](int fi) {
    if (std::find(sink.functions.begin(), sink.functions.end(), fi) == sink.functions.end())
      sink.functions.push_back(fi);
  };
  // What calling a function of the file gives: its returns and yields (a lambda: its body).
  const auto recurse_returns = [&](int fi) {
    const TSNode node = function_nodes_[fi];
    if (ts::is(node, "lambda")) recurse(ts::field(node, "body"), function_scope_[fi]);
    for (const auto* exprs : {&return_exprs_, &yield_exprs_})
      if (auto r = exprs->find(fi); r != exprs->end())
        for (const Binding& b : r->second) recurse(b.expr, b.scope);
  };
  const std::string_view t = ts::type(e);
  if (t == "parenthesized_expression") return recurse(ts::named_child(e, 0), scope);
  if (t == "subscript") {  // the key picks; the container holds
    const Value c = eval(ts::field(e, "value"), scope, depth + 1);
    // An element of an object (namespace["Model"] of what runpy.run_path returned): not the object.
    if (c.k == Value::K::Instance && c.index < 0 && c.path.rfind("builtins.", 0) != 0 && !passes_callables_on(c.path) &&
        c.path != "collections.defaultdict") {
      sink.known = true;
      return;
    }
    // Ops[k] of a class of the file that defines __class_getitem__ (or an instance's __getitem__, or
    // its metaclass's): what that method returns.
    if ((c.k == Value::K::Class || c.k == Value::K::Instance) && c.index >= 0) {
      std::vector<int> hooks;
      const auto hook = [&](int ci, const char* name) {
        if (const Value m = class_member(ci, name, depth + 1, ReceiverKind::Value); m.k == Value::K::Function)
          hooks.push_back(m.index);
      };
      hook(c.index, c.k == Value::K::Class ? "__class_getitem__" : "__getitem__");
      if (const TSNode meta = classes_[c.index].metaclass; c.k == Value::K::Class && !ts_node_is_null(meta))
        if (const Value m = eval(meta, classes_[c.index].scope, depth + 1); m.k == Value::K::Class && m.index >= 0)
          hook(m.index, "__getitem__");
      if (!hooks.empty()) {
        for (int fi : hooks) {
          add_function(fi);
          recurse_returns(fi);
        }
        return;
      }
    }
    return recurse(ts::field(e, "value"), scope);
  }
  if (t == "conditional_expression") {  // body if condition else alternative
    recurse(ts::named_child(e, 0), scope);
    return recurse(ts::named_child(e, 2), scope);
  }
  if (t == "boolean_operator") {
    recurse(ts::field(e, "left"), scope);
    return recurse(ts::field(e, "right"), scope);
  }
  if (t == "list" || t == "tuple" || t == "set" || t == "expression_list" || t == "argument_list") {
    for (TSNode item : ts::named_children(e)) {
      if (ts::is(item, "comment")) continue;
      // sorted(fns, key=id): the key orders the elements and is not one of them.
      if (ts::is(item, "keyword_argument") && ts::text(ts::field(item, "name"), src_) == "key") continue;
      recurse(ts::is(item, "keyword_argument") ? ts::field(item, "value") : item, scope);
    }
    return;
  }
  if (t == "dictionary") {
    for (TSNode pair : ts::named_children(e)) {
      if (ts::is(pair, "pair")) recurse(ts::field(pair, "value"), scope);
      if (ts::is(pair, "dictionary_splat")) recurse(ts::named_child(pair, 0), scope);
    }
    return;
  }
  if (t == "list_comprehension" || t == "set_comprehension" || t == "generator_expression" ||
      t == "dictionary_comprehension") {
    // What the comprehension yields comes from the iterables it walks.
    for (TSNode clause : ts::named_children(e))
      if (ts::is(clause, "for_in_clause")) recurse(ts::field(clause, "right"), scope);
    return;
  }
  if (t == "call") {
    const TSNode fn = ts::field(e, "function");
    const TSNode args = ts::field(e, "arguments");
    const Value target = eval(fn, scope, depth + 1);
    if (target.k == Value::K::Function) {  // a helper of this file: what it returns
      add_function(target.index);
      recurse_returns(target.index);
      return;
    }
    // collections.defaultdict(lambda: torch.relu): a missing key holds what the factory returns;
    // dataclasses.field(default=f) holds f, default_factory=g what g returns.
    if (target.k == Value::K::Path &&
        (target.path == "collections.defaultdict" || target.path == "dataclasses.field")) {
      const bool field = target.path == "dataclasses.field";
      const TSNode factory = field ? keyword_arg(args, "default_factory") : positional_arg(args, 0);
      if (const Value f = eval(factory, scope, depth + 1); f.k == Value::K::Function) recurse_returns(f.index);
      if (field) return recurse(keyword_arg(args, "default"), scope);
      for (uint32_t i = 1; !ts_node_is_null(positional_arg(args, i)); ++i) recurse(positional_arg(args, i), scope);
      sink.known = true;
      return;
    }
    // table.get("r"), table.pop(k): what the container holds.
    if (ts::is(fn, "attribute")) {
      const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
      if (method == "get" || method == "pop" || method == "setdefault" || method == "__getitem__" ||
          method == "values" || method == "items") {
        // table.get("exact", torch.relu): the default may be what is called.
        if (method == "get" || method == "pop" || method == "setdefault")
          recurse(positional_arg(ts::field(e, "arguments"), 1), scope);
        return recurse(ts::field(fn, "object"), scope);
      }
    }
    if (target.k == Value::K::Path && passes_callables_on(target.path))
      return recurse(ts::field(e, "arguments"), scope);
    if (target.k == Value::K::Path &&
        (target.path == "functools.partial" || target.path == "builtins.staticmethod" ||
         target.path == "builtins.classmethod" || target.path == "functools.partialmethod"))
      return recurse(positional_arg(ts::field(e, "arguments"), 0), scope);
    const Value result = eval(e, scope, depth + 1);
    if (target.k == Value::K::Path && target.path == "builtins.getattr" && result.k == Value::K::Path &&
        !is_dtype_path(result.path)) {
      sink.paths.push_back(result.path);  // getattr(torch, "relu")
      return;
    }
    if (result.k == Value::K::Kernel || result.k == Value::K::Instance || result.k == Value::K::Function ||
        result.k == Value::K::ExtFunction)
      sink.known = true;
    return;
  }
  if (t == "lambda") {  // its body is this file's code (a default's lambda may not be a collected function)
    const Value v = eval(e, scope, depth + 1);
    if (v.k == Value::K::Function) add_function(v.index);
    sink.known = true;
    return;
  }
  if (t != "identifier" && t != "attribute") return;
  if (t == "attribute") {  // type(self).OPS, Ops.table: what the class body binds to it (helper.op: the file)
    const Value owner = eval(ts::field(e, "object"), scope, depth + 1);
    const std::string attr(ts::text(ts::field(e, "attribute"), src_));
    std::optional<std::vector<Binding>> held;
    if (owner.k == Value::K::Class && owner.index >= 0)
      if (auto it = classes_[owner.index].class_attrs.find(attr); it != classes_[owner.index].class_attrs.end())
        held = it->second;
    if (owner.k == Value::K::Function)
      if (auto fa = function_attrs_.find(owner.index); fa != function_attrs_.end())
        if (auto it = fa->second.find(attr); it != fa->second.end()) held = it->second;
    if (!held) held = enum_member_value(e, scope, depth + 1);  // Act.RELU.value
    // A namedtuple's field (launch.run of launch = Launch(run, block)): the argument that filled it.
    if (!held && owner.k == Value::K::Instance && owner.index < 0 && namedtuple_maker(owner.path))
      held = constructor_keywords(ts::field(e, "object"), attr, scope);
    if (held) {
      for (const Binding& b : *held) recurse(b.expr, b.scope);
      return;
    }
  }
  const Value v = eval(e, scope, depth + 1);
  switch (v.k) {
    case Value::K::Function:
      add_function(v.index);
      return;
    case Value::K::Path:
      // A module's function or a tensor's bound method (x.relu) named as a value.
      if (!is_dtype_path(v.path)) sink.paths.push_back(v.path);
      return;
    case Value::K::Instance:
      // What a builtin or a container returned (table.get(k), itertools.cycle(fs)): its bindings say.
      if (v.path.rfind("builtins.", 0) == 0 || passes_callables_on(v.path) || v.path == "collections.defaultdict")
        break;
      // A library module held as a value (`for m in [self.conv, self.bn]: x = m(x)`): calling it is a
      // call of that module, as calling self.conv by name is. Only an object a class built (its last
      // name capitalised, torch.nn.Conv2d); what a function returned (runpy.run_path's dict) is not a
      // module. A module container held so (`for stage in [self.body]: x = stage(x)`) calls its
      // children: the torch modules it holds are calls of them, its classes' forward an edge.
      if (v.index < 0 && module_container(v.path)) {
        ModuleSink held;
        std::set<std::tuple<uint32_t, uint32_t, int>> held_seen;
        module_elements(e, scope, depth + 1, held, held_seen);
        for (const std::string& child : held.children) sink.modules.push_back(child);
        for (int ci : held.classes)
          for (const char* m : {"forward", "__call__"})
            if (const Value target = class_member(ci, m, 0, ReceiverKind::Value); target.k == Value::K::Function)
              add_function(target.index);
      }
      if (const std::string last = last_component(v.path); v.index < 0 && !last.empty() && !module_container(v.path) &&
                                                           std::isupper(static_cast<unsigned char>(last[0])))
        sink.modules.push_back(v.path);
      sink.known = true;
      return;
    case Value::K::Kernel:
    case Value::K::Class:
    case Value::K::ExtFunction:
    case Value::K::Extension:
      sink.known = true;
      return;
    default:
      break;
  }
  if (t == "attribute") {  // self.ops: what the class's methods bind to it, or its class body
    const Value owner = eval(ts::field(e, "object"), scope, depth + 1);
    if (owner.k != Value::K::Self || owner.index < 0) return;
    const std::string attr(ts::text(ts::field(e, "attribute"), src_));
    const ClassInfo& ci = classes_[owner.index];
    for (const auto* attrs : {&ci.self_attrs, &ci.class_attrs})
      if (auto it = attrs->find(attr); it != attrs->end())
        for (const Binding& b : it->second) recurse(ts_node_is_null(b.expr) ? b.unpacked : b.expr, b.scope);
    for (const AttrFill& fill : attr_fills_)  // self.ops.append(f)
      if (!fill.dead && fill.class_index == owner.index && fill.attr == attr) recurse(fill.args, fill.scope);
    if (auto it = subscript_fills_.find(container_key(e, scope)); it != subscript_fills_.end())
      for (const Binding& b : it->second) recurse(b.expr, b.scope);
    return;
  }
  // A name bound to a container or passed in: follow its bindings, or the arguments at its call sites.
  const std::string name(ts::text(e, src_));
  const Found f = find_name(name, scope);
  // (A for target: the elements of the iterable it walks, `for f in (torch.relu, torch.tanh): f(x)`.)
  if (f.k == Found::K::Binding && f.bindings)
    for (const Binding& b : *f.bindings) {
      recurse(ts_node_is_null(b.expr) ? b.unpacked : b.expr, b.scope);
      if (ts_node_is_null(b.expr)) recurse(b.iterated, b.scope);
    }
  if (auto it = subscript_fills_.find(container_key(e, scope)); it != subscript_fills_.end())
    for (const Binding& b : it->second) recurse(b.expr, b.scope);
  // OPS.insert(0, f), OPS.append(f), table.update(act=f), table.setdefault("act", f): what it gathers.
  if (f.k == Found::K::Binding || f.k == Found::K::Global)
    for (const ContainerFill& fill : container_fills_)
      if (!fill.dead && fill.name == name && find_name(name, fill.scope).scope == f.scope)
        recurse(fill.args, fill.scope);
  if (f.k == Found::K::Param)
    for (const Binding& b : param_arguments(f.scope, name)) recurse(b.expr, b.scope);
}

// A binding a call may run (another branch's, a constructor keyword's, a decorator's result): evaluated
// where it was written; a library function is added to `paths` (a call of it at the call site), a
// function of the file other than `self_fn` gets an edge. Returns the value for the caller's other cases.
Value Extractor::held_callee(const Binding& b, int scope, const Guard& guard, std::vector<std::string>& paths,
                             int self_fn) {
  int saved = current_scope_;
  current_scope_ = b.scope;
  const Value v = eval(b.expr, b.scope, 1);
  current_scope_ = saved;
  if (v.k == Value::K::Path && !is_dtype_path(v.path) && std::find(paths.begin(), paths.end(), v.path) == paths.end())
    paths.push_back(v.path);
  else if (v.k == Value::K::Function && v.index != self_fn)
    add_edge(fn_of(scope), v.index, edge_dead(guard));
  return v;
}

// The other bindings of a called name that may reach the call (a sibling branch's, a case's; any of
// an attribute of self that several places set): eval gave one of them. A library function among them is a call of it
// here (`paths`), a torch module object a call of that module (`modules`), a function of the file an edge to it.
void Extractor::other_reaching_callees(TSNode fn, int scope, const Value& callee, const Guard& guard,
                                       std::vector<std::string>& paths, std::vector<std::string>& modules) {
  std::vector<const Binding*> reaching;
  if (ts::is(fn, "identifier")) {
    const Found f = find_name(std::string(ts::text(fn, src_)), scope);
    if (f.k != Found::K::Binding || !f.bindings || f.bindings->size() < 2) return;
    reaching = reaching_bindings(*f.bindings, f.scope == scope ? fn : TSNode{});
  } else if (ts::is(fn, "attribute")) {  // self.act, which several methods or branches may set
    const Value owner = eval(ts::field(fn, "object"), scope);
    // An object of a library class built with `act=f` (types.SimpleNamespace(act=torch.relu), a
    // namedtuple's or config class's keyword): `.act` gives f back.
    std::vector<Binding> keyword;
    if (owner.k == Value::K::Instance &&
        (owner.index < 0 ? owner.path.rfind("torch.", 0) != 0 : !record_fields(owner.index).empty()))
      keyword =
          constructor_keywords(ts::field(fn, "object"), std::string(ts::text(ts::field(fn, "attribute"), src_)), scope);
    if (!keyword.empty()) {  // the callee's own value is the call's already
      if (callee.k == Value::K::Path) paths.push_back(callee.path);
      for (const Binding& b : keyword)
        held_callee(b, scope, guard, paths, callee.k == Value::K::Function ? callee.index : -1);
      if (callee.k == Value::K::Path) paths.erase(std::find(paths.begin(), paths.end(), callee.path));
      return;
    }
    const auto* attrs = owner.k == Value::K::Self && owner.index >= 0 ? &classes_[owner.index].self_attrs : nullptr;
    if (owner.k == Value::K::Function)  // helper.op, set in several places
      if (auto fa = function_attrs_.find(owner.index); fa != function_attrs_.end()) attrs = &fa->second;
    if (!attrs) return;
    auto it = attrs->find(std::string(ts::text(ts::field(fn, "attribute"), src_)));
    if (it == attrs->end() || it->second.size() < 2) return;
    for (const Binding& b : it->second) reaching.push_back(&b);
  }
  // The callee's own value is already the call's: a path equal to it is not added again, nor an edge.
  if (callee.k == Value::K::Path) paths.push_back(callee.path);
  for (const Binding* b : reaching) {
    if (ts_node_is_null(b->expr)) continue;
    const Value v = held_callee(*b, scope, guard, paths, callee.k == Value::K::Function ? callee.index : -1);
    if (v.k == Value::K::Instance && v.index < 0 && v.path.rfind("torch.nn.", 0) == 0 && !module_container(v.path) &&
        !(v.k == callee.k && v.path == callee.path))
      modules.push_back(v.path);
  }
  if (callee.k == Value::K::Path) paths.erase(std::find(paths.begin(), paths.end(), callee.path));
}

// A function of the file under decorators of the file: its name holds what the decorators return, so
// calling it calls that (`def swap(f): return torch.relu` over `@swap def act(x)`). A decorator (or a
// decorator factory's result, `@deco(arg)`) that is a def or a lambda of the file is followed: a library
// function it returns is a call of it at the call site (`paths`), a function of the file (a wrapper)
// an edge. Returning the parameter it was given adds nothing: the function itself is already called.
void Extractor::decorated_callees(int fi, int scope, const Guard& guard, std::vector<std::string>& paths) {
  if (fi < 0 || static_cast<size_t>(fi) >= decorator_nodes_.size() || decorator_nodes_[fi].empty()) return;
  const int outer = scopes_[function_scope_[fi]].parent;
  const auto returned = [&](int g, std::vector<Binding>& out) {
    const TSNode node = function_nodes_[g];
    if (ts::is(node, "lambda")) out.push_back(Binding{ts::field(node, "body"), function_scope_[g]});
    if (auto r = return_exprs_.find(g); r != return_exprs_.end())
      out.insert(out.end(), r->second.begin(), r->second.end());
  };
  for (TSNode d : decorator_nodes_[fi]) {
    const bool factory = ts::is(d, "call");
    const Value deco = eval(factory ? ts::field(d, "function") : d, outer, 1);
    if (deco.k != Value::K::Function || deco.index == fi) continue;
    std::vector<Binding> results;
    returned(deco.index, results);
    if (factory) {  // @deco(arg): deco returns the decorator, whose returns are the name's value
      std::vector<Binding> decorators;
      decorators.swap(results);
      for (const Binding& b : decorators)
        if (const Value inner = eval(b.expr, b.scope, 1); inner.k == Value::K::Function) returned(inner.index, results);
    }
    // A returned parameter of the factory (`def finish_with(op): def deco(f): return op`) is what the
    // factory's call passed.
    std::vector<Binding> passed;
    for (const Binding& b : results)
      if (factory && ts::is(b.expr, "identifier"))
        if (const Found p = find_name(std::string(ts::text(b.expr, src_)), b.scope);
            p.k == Found::K::Param && p.scope == function_scope_[deco.index])
          for (const Binding& a : param_arguments(p.scope, std::string(ts::text(b.expr, src_)))) passed.push_back(a);
    results.insert(results.end(), passed.begin(), passed.end());
    // What each return may hold (`return log(f) or torch.mul`, a conditional, a table entry).
    for (const Binding& b : results) {
      CallableSink sink;
      std::set<std::tuple<uint32_t, uint32_t, int>> seen;
      callable_elements(b.expr, b.scope, 1, sink, seen);
      for (int g : sink.functions)
        if (g != fi) add_edge(fn_of(scope), g, edge_dead(guard));
      for (const std::string& path : sink.paths)
        if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
    }
  }
}

// The functions of the file registered on `fi` under `@fi.register` or `@fi.register(T)`
// (functools.singledispatch).
std::vector<int> Extractor::registered_by_decorator(int fi) {
  std::vector<int> out;
  for (size_t g = 0; g < decorator_nodes_.size(); ++g)
    for (TSNode d : decorator_nodes_[g]) {
      const TSNode target = ts::is(d, "call") ? ts::field(d, "function") : d;
      if (!ts::is(target, "attribute") || ts::text(ts::field(target, "attribute"), src_) != "register") continue;
      // A method's decorators name the class body's methods (`@act.register` under
      // functools.singledispatchmethod), which no scope holds.
      const Scope& own = scopes_[function_scope_[g]];
      const TSNode object = ts::field(target, "object");
      int owner = -1;
      if (own.class_index >= 0 && ts::is(object, "identifier")) {
        const auto& methods = classes_[own.class_index].methods;
        if (auto m = methods.find(std::string(ts::text(object, src_))); m != methods.end()) owner = m->second;
      }
      if (const Value v = owner < 0 ? eval(object, own.parent, 1) : Value{}; v.k == Value::K::Function) owner = v.index;
      if (owner == fi && static_cast<int>(g) != fi) out.push_back(static_cast<int>(g));
    }
  return out;
}

// Whether calling `fi` may run an implementation registered on it instead of its body.
bool Extractor::dispatches(int fi) { return registered_.count(fi) > 0 || !registered_by_decorator(fi).empty(); }

// The implementations registered on a function of the file (functools.singledispatch): `act.register(T,
// g)`, and defs under `@act.register` or `@act.register(T)`. Calling act runs one of them, chosen by the
// argument's type at run time: each is an edge that gets the call's arguments, or a library function a
// call of it at the call site.
void Extractor::registered_callees(int fi, TSNode args, bool bound, int scope, const Guard& guard,
                                   std::vector<std::string>& paths) {
  if (auto it = registered_.find(fi); it != registered_.end())
    for (const Binding& b : it->second)
      if (const Value v = held_callee(b, scope, guard, paths, fi); v.k == Value::K::Function && v.index != fi)
        call_sites_[v.index].push_back({args, scope, bound});
  for (int g : registered_by_decorator(fi)) {
    add_edge(fn_of(scope), g, edge_dead(guard));
    call_sites_[g].push_back({args, scope, bound});
  }
}

// The `attr=` keyword values of the constructor calls an object expression is bound to: a name's
// bindings, or self.<name>'s.
std::vector<Binding> Extractor::constructor_keywords(TSNode object, const std::string& attr, int scope, bool* dynamic) {
  std::vector<Binding> built, out;
  if (ts::is(object, "call")) {  // Ops(torch.relu).act
    built.push_back(Binding{object, scope});
  } else if (ts::is(object, "identifier")) {
    const Found f = find_name(std::string(ts::text(object, src_)), scope);
    if (f.k == Found::K::Binding && f.bindings) built = *f.bindings;
  } else if (ts::is(object, "attribute")) {
    const Value owner = eval(ts::field(object, "object"), scope);
    if (owner.k == Value::K::Self && owner.index >= 0)
      if (auto it = classes_[owner.index].self_attrs.find(std::string(ts::text(ts::field(object, "attribute"), src_)));
          it != classes_[owner.index].self_attrs.end())
        built = it->second;
  }
  for (const Binding& b : built)
    if (ts::is(b.expr, "call")) {
      const TSNode args = ts::field(b.expr, "arguments");
      if (TSNode value = keyword_arg(args, attr); !ts_node_is_null(value)) {
        out.push_back(Binding{value, b.scope});
      } else if (has_dict_splat(args)) {
        // Cfg(**kw): the entry for the field of each splatted dict the file shows; another is dynamic.
        for (TSNode a : ts::named_children(args))
          if (ts::is(a, "dictionary_splat") && !dict_entries(ts::named_child(a, 0), b.scope, attr, out) && dynamic)
            *dynamic = true;
      } else if (const int at = namedtuple_field(ts::field(b.expr, "function"), attr, b.scope); at >= 0) {
        // Ops(*fns), Ops(**cfg): which argument fills the field is known only at run time.
        bool splat = false;
        for (int i = 0; i <= at; ++i)
          if (TSNode a = positional_arg(args, static_cast<uint32_t>(i));
              ts::is(a, "list_splat") || ts::is(a, "dictionary_splat"))
            splat = true;
        if (TSNode positional = positional_arg(args, static_cast<uint32_t>(at)); !ts_node_is_null(positional) && !splat)
          out.push_back(Binding{positional, b.scope});
      }
    }
  return out;
}

// The value a class built by `type("Ops", (), {"act": f})` holds for `attr`, where `object` is bound
// (only) to such calls: the dict entries for it (empty: none, so unknown). Nullopt for any other object.
std::optional<std::vector<Binding>> Extractor::type_namespace(TSNode object, const std::string& attr, int scope) {
  std::vector<Binding> built;
  if (ts::is(object, "call")) {
    built.push_back(Binding{object, scope});
  } else if (ts::is(object, "identifier")) {
    const Found f = find_name(std::string(ts::text(object, src_)), scope);
    if (f.k == Found::K::Binding && f.bindings) built = *f.bindings;
  }
  std::optional<std::vector<Binding>> out;
  for (const Binding& b : built) {
    if (!ts::is(b.expr, "call")) continue;
    const TSNode args = ts::field(b.expr, "arguments");
    const TSNode ns = positional_arg(args, 2);
    if (ts_node_is_null(ns)) continue;
    const Value maker = eval(ts::field(b.expr, "function"), b.scope, 1);
    if (maker.k != Value::K::Path || maker.path != "builtins.type") continue;
    if (!out) out.emplace();
    (void)dict_entries(ns, b.scope, attr, *out);
  }
  return out;
}

bool Extractor::has_dict_splat(TSNode args) const {
  for (TSNode a : ts::named_children(args))
    if (ts::is(a, "dictionary_splat")) return true;
  return false;
}

// The values a dict holds for `key`, gathered into `out`, where the file shows the dict: a literal
// ({"act": f}), a dict(act=f) call, a name bound only to those, or the model's `**kwargs` (empty).
// Whether it does (else the entry is known only at run time).
bool Extractor::dict_entries(TSNode dict, int scope, const std::string& key, std::vector<Binding>& out) {
  std::vector<Binding> dicts;
  if (ts::is(dict, "identifier")) {
    const std::string name(ts::text(dict, src_));
    const Found d = find_name(name, scope);
    // The `**kwargs` of the model class's __init__: the harness builds the model from
    // get_init_inputs() by position, so it holds no entry.
    if (d.k == Found::K::Param && d.scope >= 0 && model_class_ >= 0 && scopes_[d.scope].class_index == model_class_ &&
        scopes_[d.scope].function >= 0 && facts_.functions[scopes_[d.scope].function].name == "__init__")
      if (auto p = scopes_[d.scope].param_nodes.find(name);
          p != scopes_[d.scope].param_nodes.end() && ts::is(p->second, "dictionary_splat_pattern"))
        return true;
    if (d.k != Found::K::Binding || !d.bindings || d.bindings->empty()) return false;
    dicts = *d.bindings;
  } else {
    dicts.push_back(Binding{dict, scope});
  }
  for (const Binding& d : dicts) {
    if (ts::is(d.expr, "dictionary")) {
      for (TSNode pair : ts::named_children(d.expr)) {
        if (ts::is(pair, "dictionary_splat")) return false;
        if (!ts::is(pair, "pair")) continue;
        const auto k = fold_in(ts::field(pair, "key"), d.scope);
        if (!k) return false;
        if (k->text == key) out.push_back(Binding{ts::field(pair, "value"), d.scope});
      }
    } else if (const Value maker = ts::is(d.expr, "call") ? eval(ts::field(d.expr, "function"), d.scope, 1) : Value{};
               maker.k == Value::K::Path && maker.path == "builtins.dict" &&
               ts_node_is_null(positional_arg(ts::field(d.expr, "arguments"), 0)) &&
               !has_dict_splat(ts::field(d.expr, "arguments"))) {
      if (TSNode v = keyword_arg(ts::field(d.expr, "arguments"), key); !ts_node_is_null(v))
        out.push_back(Binding{v, d.scope});
    } else {
      return false;
    }
  }
  return true;
}

// Where `attr` stands among the fields of a namedtuple type the file builds (`Ops =
// collections.namedtuple("Ops", "act norm")`, typing.NamedTuple("Ops", [("act", ...)])), so that
// `Ops(torch.relu).act` is its first positional argument; -1 when `type` is no such type or lacks it.
int Extractor::namedtuple_field(TSNode type, const std::string& attr, int scope) {
  if (!ts::is(type, "identifier")) return -1;
  const Found f = find_name(std::string(ts::text(type, src_)), scope);
  if (f.k == Found::K::Class && f.index >= 0) {  // a dataclass or typing.NamedTuple class of the file
    const std::vector<std::string> fields = record_fields(f.index);
    const auto at = std::find(fields.begin(), fields.end(), attr);
    return at == fields.end() ? -1 : static_cast<int>(at - fields.begin());
  }
  if (f.k != Found::K::Binding || !f.bindings || f.bindings->size() != 1) return -1;
  const Binding& b = f.bindings->front();
  if (!ts::is(b.expr, "call")) return -1;
  const Value maker = eval(ts::field(b.expr, "function"), b.scope, 1);
  if (maker.k != Value::K::Path || !namedtuple_maker(maker.path)) return -1;
  const TSNode args = ts::field(b.expr, "arguments");
  TSNode fields = positional_arg(args, 1);
  if (ts_node_is_null(fields)) fields = keyword_arg(args, maker.path == "typing.NamedTuple" ? "fields" : "field_names");
  std::vector<std::string> names;
  if (auto one = folder_.fold_string(fields)) {  // "act norm" or "act, norm"
    std::string name;
    for (char ch : one->text + " ") {
      if (ch == ' ' || ch == ',' || ch == '\t' || ch == '\n') {
        if (!name.empty()) names.push_back(name);
        name.clear();
      } else {
        name += ch;
      }
    }
  } else if (ts::is(fields, "list") || ts::is(fields, "tuple")) {
    for (TSNode item : ts::named_children(fields)) {
      if (ts::is(item, "comment")) continue;
      if (ts::is(item, "tuple")) item = ts::named_child(item, 0);  // ("act", Callable)
      auto name = folder_.fold_string(item);
      names.push_back(name ? name->text : "");
    }
  }
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == attr) return static_cast<int>(i);
  return -1;
}

// What `object.attr` (`node`) reads where the file shows how the object was built: a field of a
// collections.namedtuple object, or of a @dataclass or typing.NamedTuple class of the file (the argument
// given for it, else the class body's default), or an entry of the namespace dict of type("Ops", (),
// {...}). Where the construction has the name but not what fills it (Ops(*fns).act), the read is
// unresolved. Nullopt for any other read (attribute_of decides).
std::optional<Value> Extractor::built_attribute(TSNode node, const Value& obj, const std::string& attr, int scope,
                                                int depth) {
  if (obj.k != Value::K::Instance) return std::nullopt;
  const TSNode object = ts::field(node, "object");
  std::optional<std::vector<Binding>> held;
  bool has_default = false;
  bool dynamic = false;  // Cfg(**kw) with kw not shown: what fills the field is known only at run time
  if (obj.index >= 0) {
    const std::vector<std::string> fields = record_fields(obj.index);
    if (std::find(fields.begin(), fields.end(), attr) == fields.end()) return std::nullopt;
    held = constructor_keywords(object, attr, scope, &dynamic);
    has_default = classes_[obj.index].class_attrs.count(attr) > 0;
  } else if (obj.path == "builtins.type") {
    held = type_namespace(object, attr, scope);
  } else if (namedtuple_maker(obj.path) && attr.rfind('_', 0) != 0 && attr != "count" && attr != "index") {
    held = constructor_keywords(object, attr, scope, &dynamic);
  }
  if (!held) return std::nullopt;
  if (!held->empty() && !dynamic) return eval_binding(*held, depth + 1);
  if (has_default && !dynamic) return std::nullopt;  // the class body's default, which class_member reads
  Value v;
  v.k = Value::K::Unknown;
  v.unresolved = true;
  v.path = std::string(ts::text(node, src_)).substr(0, 120);
  return v;
}

// The fields of a record class of the file, in order: a @dataclass or a typing.NamedTuple subclass,
// whose annotated class-body names (`act: Callable`, `block: int = 1024`) are its constructor's
// parameters. Empty for any other class.
std::vector<std::string> Extractor::record_fields(int ci) {
  const ClassInfo& c = classes_[ci];
  bool record = false;
  for (TSNode b : c.base_nodes)
    if (const Value v = eval(b, c.scope, 1); v.k == Value::K::Path && v.path == "typing.NamedTuple") record = true;
  for (TSNode d : c.decorator_nodes)
    if (const Value v = eval(ts::is(d, "call") ? ts::field(d, "function") : d, c.scope, 1);
        v.k == Value::K::Path && v.path == "dataclasses.dataclass")
      record = true;
  std::vector<std::string> fields;
  if (!record) return fields;
  for (TSNode st : ts::named_children(ts::field(c.node, "body"))) {
    const TSNode a = ts::is(st, "expression_statement") ? ts::named_child(st, 0) : TSNode{};
    if (ts::is(a, "assignment") && !ts_node_is_null(ts::field(a, "type")) && ts::is(ts::field(a, "left"), "identifier"))
      fields.emplace_back(ts::text(ts::field(a, "left"), src_));
  }
  return fields;
}

void Extractor::finish_computed_callees() {
  for (const PendingCallee& p : pending_callees_) {
    CallableSink sink;
    std::set<std::tuple<uint32_t, uint32_t, int>> seen;
    callable_elements(p.at.fn, p.at.scope, 0, sink, seen);
    for (int fi : sink.functions) add_edge(fn_of(p.at.scope), fi, edge_dead(p.at.guard));
    const Call held = facts_.calls[p.at.call];
    for (const auto* held_paths : {&sink.paths, &sink.modules})
      for (const std::string& path : *held_paths) {
        Call cc = held;
        cc.resolved = path;
        cc.method = last_component(path);
        cc.instance_call = held_paths == &sink.modules;
        cc.keywords.push_back("@held-as-value");
        call_start_.push_back(p.at.start);
        facts_.calls.push_back(std::move(cc));
      }
    // A parameter that no call site of this file binds comes from the harness or a carrier (forward's
    // kv_cache module, a hook's arguments): not this file's to name.
    if (!p.parameter && sink.paths.empty() && sink.modules.empty() && sink.functions.empty() && !sink.known)
      facts_.calls[p.at.call].keywords.push_back("@computed-target");
  }
}

}  // namespace kgate::python::detail
