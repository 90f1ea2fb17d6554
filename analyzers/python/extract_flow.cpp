// Extractor, after pass 2: reachability from the entries, the per-return data flow, handlers, globals, launch arguments
// and the format.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

void Extractor::compute_reachability() {
  size_t nf = facts_.functions.size();
  // Reachability from forward follows definitions too (a nested function or lambda defined on the
  // path is taken as reached: it is usually called or handed to something that calls it); "executed
  // at import" follows calls only.
  std::vector<std::vector<std::pair<int, bool>>> out(nf + 1), calls_only(nf + 1);  // index nf = module body
  for (const Edge& e : edges_) {
    if (e.to < 0) continue;
    size_t from = e.from < 0 ? nf : static_cast<size_t>(e.from);
    out[from].push_back({e.to, e.dead});
    if (!e.definition) calls_only[from].push_back({e.to, e.dead});
  }
  auto bfs = [&](const std::vector<int>& roots, auto mark, const auto& graph) {
    std::vector<int> stack(roots.begin(), roots.end());
    std::vector<char> seen(nf + 1, 0);
    while (!stack.empty()) {
      int f = stack.back();
      stack.pop_back();
      size_t fi = f < 0 ? nf : static_cast<size_t>(f);
      if (seen[fi]) continue;
      seen[fi] = 1;
      if (f >= 0) mark(f);
      for (auto [to, dead] : graph[fi])
        if (!dead) stack.push_back(to);
    }
  };
  bfs(facts_.entries, [&](int f) { facts_.functions[f].reachable = true; }, out);
  std::vector<int> import_roots = {-1};
  if (model_class_ >= 0) {
    auto it = classes_[model_class_].methods.find("__init__");
    if (it != classes_[model_class_].methods.end()) import_roots.push_back(it->second);
  }
  bfs(import_roots, [&](int f) { facts_.functions[f].executed_at_import = true; }, calls_only);

  auto live = [&](int function, const Guard& g) {
    return function >= 0 && facts_.functions[function].reachable && !g.dead();
  };
  for (auto& c : facts_.calls) c.reachable = live(c.function, c.guard);
  for (auto& l : facts_.launches) l.reachable = live(l.function, l.guard);
  for (auto& w : facts_.writes) w.reachable = live(w.function, w.guard);
  for (size_t i = 0; i < facts_.names.size(); ++i)
    facts_.names[i].reachable = live(facts_.names[i].function, name_guards_[i]);
  for (Function& fn : facts_.functions)
    for (int f = static_cast<int>(&fn - facts_.functions.data()); f >= 0; f = facts_.functions[f].parent)
      if (input_generator_name(facts_.functions[f].name)) fn.input_generator = true;
  for (size_t i = 0; i < facts_.casts.size(); ++i) {
    Cast& cast = facts_.casts[i];
    cast.reachable = live(cast.function, cast_guards_[i]);
    cast.setup = cast_guards_[i].script_main || setup_function(cast.function);
  }
  for (size_t i = 0; i < facts_.handlers.size(); ++i)
    facts_.handlers[i].reachable = live(facts_.handlers[i].function, handler_guards_[i]);
}

// Set-up code, not computation: input generators the harnesses call (KernelBench's get_inputs and
// get_init_inputs, GPU MODE's generate_input), constructors, and what they nest.
bool Extractor::setup_function(int function) const {
  for (int f = function; f >= 0 && f < static_cast<int>(facts_.functions.size()); f = facts_.functions[f].parent)
    if (facts_.functions[f].name == "__init__" || facts_.functions[f].input_generator) return true;
  return false;
}

bool Extractor::input_generator_name(const std::string& name) {
  return name == "get_inputs" || name == "get_init_inputs" || name == "generate_input" || name == "init_state";
}

// The bindings of parameter `name` that reach byte `use`, when one that runs whenever the use does
// (no branch, loop or try between them, or an if/else that rebinds it in every branch) comes before the
// use: that one and any later ones before the use. nullopt: none does, and the parameter itself still
// reaches. `x += v` is an in-place write, not a rebinding.
std::optional<std::vector<const Binding*>> Extractor::param_rebinding(const std::string& name, int scope,
                                                                      uint32_t use) const {
  const auto it = scopes_[scope].bindings.find(name);
  if (it == scopes_[scope].bindings.end() || scopes_[scope].function < 0) return std::nullopt;
  std::vector<Binding> rebinds;
  std::vector<const Binding*> original;
  for (const Binding& b : it->second)
    if (!ts_node_is_null(b.expr)) {
      rebinds.push_back(b);
      original.push_back(&b);
    }
  const Reaching r = reaching_at(rebinds, use);
  if (!r.kill) return std::nullopt;
  std::vector<const Binding*> reaching;
  for (const Binding* b : r.before) reaching.push_back(original[static_cast<size_t>(b - rebinds.data())]);
  return reaching;
}

// A @triton.jit kernel that stores nothing (`pass`, or loads and math with no tl.store or atomic):
// marked like a CUDA kernel that never writes through a pointer (kernel-writes-nothing). A kernel that
// calls another jit helper or inline assembly may write there, so it is not marked; neither is a jit
// function that no launch names (a device helper).
void Extractor::mark_triton_kernels_without_stores() {
  std::vector<char> writes(facts_.functions.size(), 0);
  for (const Call& c : facts_.calls) {
    if (c.function < 0) continue;
    const bool store = c.resolved == "triton.language.store" || c.resolved.rfind("triton.language.atomic_", 0) == 0 ||
                       c.resolved.rfind("triton.language.inline_asm", 0) == 0 || c.method == "store" ||
                       c.method.rfind("atomic_", 0) == 0 || c.local_target;
    if (!store) continue;
    for (int f = c.function; f >= 0; f = facts_.functions[f].parent) writes[f] = 1;
  }
  // Only launched kernels: a jit helper that other kernels call returns its values instead.
  std::vector<char> launched(facts_.functions.size(), 0);
  for (const Launch& l : facts_.launches)
    if (l.kernel_function >= 0 && l.kernel_function < static_cast<int>(launched.size()))
      launched[l.kernel_function] = 1;
  for (size_t f = 0; f < facts_.functions.size(); ++f)
    if (facts_.functions[f].kind == FunctionKind::TritonJit && launched[f] && !writes[f])
      facts_.functions[f].decorators.push_back("no-pointer-write");
}

void Extractor::merge(ReturnFlow& into, const ReturnFlow& from) {
  for (const auto& o : from.origins)
    if (std::find(into.origins.begin(), into.origins.end(), o) == into.origins.end()) into.origins.push_back(o);
  into.param |= from.param;
  into.written |= from.written;
  into.state |= from.state;
  into.stored |= from.stored;
}

bool Extractor::is_module_container(const std::string& name) const {
  for (const auto& g : facts_.globals)
    if (g.name == name) return true;
  return false;
}

ReturnFlow Extractor::flow(TSNode expr, int scope, int depth, std::unordered_set<std::string>& visiting) {
  ReturnFlow r;
  if (ts_node_is_null(expr) || depth > kMaxEvalDepth) return r;
  std::string_view t = ts::type(expr);
  if (t == "identifier") {
    std::string name(ts::text(expr, src_));
    Found f = find_name(name, scope);
    if (scopes_[scope].written_names.count(name)) r.written = true;
    if (f.k == Found::K::Param) {
      // `x = ext.f(x); return x` returns the kernel's result: an unconditional rebinding of the
      // parameter before this use kills it, and the value is what the rebindings since then hold.
      if (const auto rebound = param_rebinding(name, f.scope, ts_node_start_byte(expr))) {
        if (visiting.insert(name).second) {
          for (const Binding* b : *rebound) merge(r, flow(b->expr, b->scope, depth + 1, visiting));
          visiting.erase(name);
        }
        return r;
      }
      r.param = true;
    }
    if (f.k == Found::K::Self) r.state = true;
    if (f.k == Found::K::Binding && f.bindings) {
      if (f.scope == 0 && scope != 0 && is_module_container(name)) r.state = true;
      if (visiting.insert(name).second) {
        for (const Binding& b : *f.bindings) {
          if (ts_node_is_null(b.expr)) continue;
          merge(r, flow(b.expr, b.scope, depth + 1, visiting));
        }
        visiting.erase(name);
      }
      if (f.scope == 0 && scope != 0 && scopes_[scope].globals_declared.count(name)) r.state = true;
    }
    return r;
  }
  if (t == "parenthesized_expression") return flow(ts::named_child(expr, 0), scope, depth + 1, visiting);
  if (t == "tuple" || t == "list" || t == "expression_list") {
    uint32_t n = ts::named_count(expr);
    for (uint32_t i = 0; i < n; ++i) merge(r, flow(ts::named_child(expr, i), scope, depth + 1, visiting));
    return r;
  }
  if (t == "conditional_expression" && ts::named_count(expr) == 3) {
    merge(r, flow(ts::named_child(expr, 0), scope, depth + 1, visiting));
    merge(r, flow(ts::named_child(expr, 2), scope, depth + 1, visiting));
    return r;
  }
  if (t == "attribute") {
    TSNode obj = ts::field(expr, "object");
    std::string attr(ts::text(ts::field(expr, "attribute"), src_));
    Value ov = eval(obj, scope);
    if (ov.k == Value::K::Self) {
      r.state = true;
      if (scopes_[scope].written_names.count(std::string(ts::text(expr, src_)))) r.written = true;
      return r;
    }
    if (passthrough_methods().count(attr) || attr == "T" || attr == "mT") return flow(obj, scope, depth + 1, visiting);
    return r;
  }
  if (t == "subscript") {
    TSNode obj = ts::field(expr, "value");
    ReturnFlow inner = flow(obj, scope, depth + 1, visiting);
    // A slice of an input is still the input; an item of stored state is stored state.
    return inner;
  }
  if (t == "call") {
    TSNode fn = ts::field(expr, "function");
    Value callee = eval(fn, scope);
    std::string resolved = value_path(callee, fn);
    if (callee.k == Value::K::ExtFunction) r.written = true;
    int local = -1;
    if (callee.k == Value::K::Function) local = callee.index;
    if (callee.k == Value::K::Instance && callee.index >= 0) {
      Value fwd = class_member(callee.index, "forward", 0, ReceiverKind::Value);
      if (fwd.k == Value::K::Function) local = fwd.index;
    }
    // A module's own forward is judged at its own returns; only plain helpers are looked through.
    if (local >= 0 && facts_.functions[local].name == "forward") {
      r.written = true;
      local = -1;
    }
    if (local >= 0) {
      // Through a local helper: what its returns are, with its parameters standing for our arguments.
      ReturnFlow summary = function_summary(local, depth + 1);
      for (const auto& o : summary.origins)
        if (std::find(r.origins.begin(), r.origins.end(), o) == r.origins.end()) r.origins.push_back(o);
      r.written |= summary.written;
      // Stored state that a helper hands back flows on: it matters where it reaches an entry's return
      // (a helper returning a lazily built extension or a launch config never does).
      r.stored |= summary.stored;
      if (summary.param) {
        TSNode args = ts::field(expr, "arguments");
        for (uint32_t i = 0; i < ts::named_count(args); ++i) {
          TSNode a = ts::named_child(args, i);
          if (ts::is(a, "keyword_argument")) a = ts::field(a, "value");
          ReturnFlow af = flow(a, scope, depth + 1, visiting);
          if (af.param) r.param = true;
        }
      }
    }
    if (ts::is(fn, "subscript")) {  // kernel[grid](...): a Triton launch
      Value k = eval(ts::field(fn, "value"), scope);
      if (k.k == Value::K::Function) r.written = true;
    }
    r.origins.push_back(resolved);
    if (ts::is(fn, "attribute")) {
      std::string method(ts::text(ts::field(fn, "attribute"), src_));
      TSNode obj = ts::field(fn, "object");
      if (passthrough_methods().count(method)) {
        ReturnFlow inner = flow(obj, scope, depth + 1, visiting);
        inner.origins.clear();
        merge(r, inner);
      } else if (container_read_methods().count(method)) {
        ReturnFlow inner = flow(obj, scope, depth + 1, visiting);
        if (inner.state) r.state = true;
      }
    }
    return r;
  }
  return r;
}

// The merged flow of every return of a local function, memoised; recursion reads as "unknown".
ReturnFlow Extractor::function_summary(int fi, int depth) {
  if (auto it = summaries_.find(fi); it != summaries_.end()) return it->second;
  if (depth > kMaxEvalDepth) return ReturnFlow{};
  summaries_[fi] = ReturnFlow{{}, false, true, false, false};  // in progress: assume written, no input
  ReturnFlow merged;
  bool any = false;
  for (const PendingReturn& p : returns_) {
    if (fn_of(p.scope) != fi || p.guard.dead()) continue;
    TSNode value = ts::named_child(p.node, 0);
    if (ts_node_is_null(value) || returns_empty(p.node, p.scope)) continue;  // the empty-input early return
    std::unordered_set<std::string> visiting;
    const ReturnFlow path = flow(value, p.scope, depth + 1, visiting);
    if (stored_state(path, value, p.scope)) merged.stored = true;
    merge(merged, path);
    any = true;
  }
  if (!any) merged.written = true;  // returns nothing we can follow
  summaries_[fi] = merged;
  return merged;
}

// A returned value that is stored state this call did not write, or came back so from a helper. A
// kernel handle kept in a cache (the compiled kernel for this shape) is no stored output.
bool Extractor::stored_state(const ReturnFlow& f, TSNode value, int scope) {
  if (f.stored) return true;
  if (!f.state || f.written) return false;
  const Value returned = eval(value, scope);
  return returned.k != Value::K::Kernel && returned.k != Value::K::Extension && returned.k != Value::K::ExtFunction;
}

// An int or float constant: a literal, a sign on one, or a name bound once to one.
bool Extractor::number_constant(TSNode e) const {
  if (folder_.fold_int(e)) return true;
  if (ts::is(e, "identifier"))
    if (auto bound = lookup_constant(e)) e = *bound;
  if (ts::is(e, "unary_operator")) e = ts::field(e, "argument");
  return ts::is(e, "float") || ts::is(e, "integer");
}

void Extractor::finish_returns() {
  // Summaries taken during the walk saw half the module (globals and written names still filling).
  summaries_.clear();
  for (const PendingReturn& p : returns_) {
    int fi = fn_of(p.scope);
    if (fi < 0) continue;
    TSNode value = ts::named_child(p.node, 0);
    if (ts_node_is_null(value)) continue;
    std::unordered_set<std::string> visiting;
    ReturnFlow f = flow(value, p.scope, 0, visiting);
    Return r;
    r.function = fi;
    r.origins = f.origins;
    r.written = f.written;
    // Handing an input to a kernel does not make it the kernel's output: `return x` is still x.
    r.returns_param = f.param && facts_.functions[fi].kind != FunctionKind::TritonJit;
    r.from_state = stored_state(f, value, p.scope) && !fresh_copy_after_replay(p.node, value);
    r.reachable = facts_.functions[fi].reachable && !p.guard.dead();
    r.returns_empty = returns_empty(p.node, p.scope);
    if (ts::is(value, "tuple") || ts::is(value, "expression_list") || ts::is(value, "list")) {
      const std::vector<TSNode> items = ts::named_children(value);
      const bool splat = std::any_of(items.begin(), items.end(), [](TSNode e) { return ts::is(e, "list_splat"); });
      if (!splat) {
        r.elements = static_cast<int>(items.size());
        const int saved = current_scope_;
        current_scope_ = p.scope;  // the constant folder reads names in this scope
        for (TSNode e : items) r.number_elements += number_constant(e) ? 1 : 0;
        current_scope_ = saved;
      }
    }
    r.span = ts::span(p.node);
    facts_.returns.push_back(std::move(r));
  }
}

void Extractor::finish_handlers() {
  for (size_t i = 0; i < facts_.handlers.size(); ++i) {
    auto [tb, te, hb, he] = handler_ranges_[i];
    for (size_t l = 0; l < facts_.launches.size(); ++l)
      if (launch_start_[l] >= tb && launch_start_[l] < te) facts_.handlers[i].try_has_launch = true;
    for (size_t c = 0; c < facts_.calls.size(); ++c)
      if (call_start_[c] >= hb && call_start_[c] < he && facts_.calls[c].resolved.rfind("torch.", 0) == 0)
        facts_.handlers[i].handler_has_torch_call = true;
  }
}

void Extractor::finish_globals() {
  // A module-level compile cache (every change stores a compiled kernel) carries no result between calls.
  for (auto& g : facts_.globals)
    for (const GlobalMutation& m : global_mutations_)
      if (m.name == g.name && m.function >= 0 && facts_.functions[m.function].reachable && !m.stores_kernel)
        g.mutated_in_forward = true;
}

// A list gathered for a launch (a pointer table) is the kernel's argument only while nothing else reads
// it: every other mention of its name in its scope is a fill (NAME.append), a binding, or sits in a
// launch's argument list. `key = tuple(table)` or `table == last` makes it a key too.
bool Extractor::only_launch_uses(int scope, const std::string& name) const {
  const int fn = scopes_[scope].function;
  TSNode body = fn >= 0 ? function_nodes_[fn] : root_;
  if (ts_node_is_null(body)) return false;
  const auto in_launch = [&](uint32_t at) {
    return std::any_of(launch_arg_ranges_.begin(), launch_arg_ranges_.end(),
                       [&](const auto& r) { return at > r.first && at < r.second; });
  };
  bool ok = true;
  ts::preorder(body, [&](TSNode node) {
    if (ts::is(node, "identifier") && ts::text(node, src_) == name) {
      TSNode parent = ts::parent(node);
      const bool fill = ts::is(parent, "attribute") && ts_node_eq(ts::field(parent, "object"), node) &&
                        ts::is(ts::parent(parent), "call");
      const bool bound = ts::is(parent, "assignment") && ts_node_eq(ts::field(parent, "left"), node);
      const bool parameter = ts::is(parent, "parameters");
      if (!fill && !bound && !parameter && !in_launch(ts_node_start_byte(node))) ok = false;
    }
    return ok;
  });
  return ok;
}

void Extractor::finish_launch_arguments() {
  std::vector<std::pair<uint32_t, uint32_t>> tables;
  for (const auto& [scope, name] : launch_containers_)
    if (only_launch_uses(scope, name))
      for (const ContainerFill& fill : container_fills_)
        if (fill.scope == scope && fill.name == name) tables.emplace_back(fill.begin, fill.end);
  launch_arg_ranges_.insert(launch_arg_ranges_.end(), tables.begin(), tables.end());
  for (size_t i = 0; i < facts_.calls.size(); ++i)
    for (const auto& [begin, end] : launch_arg_ranges_)
      if (call_start_[i] > begin && call_start_[i] < end) facts_.calls[i].launch_argument = true;
}

void Extractor::decide_format() {
  bool model_new = module_class_named("ModelNew") >= 0;
  for (const auto& c : facts_.classes)
    if (c.name == "ModelNew") model_new = true;
  bool triton = std::any_of(facts_.functions.begin(), facts_.functions.end(),
                            [](const Function& f) { return f.kind == FunctionKind::TritonJit; });
  bool has_model = scopes_[0].local_classes.count("Model") > 0;
  bool has_inputs = scopes_[0].local_functions.count("get_inputs") > 0;
  if (!facts_.extensions.empty())
    facts_.format = SubmissionFormat::KernelBenchCuda;
  else if (triton)
    facts_.format = SubmissionFormat::KernelBenchTriton;
  else if (model_new)
    facts_.format = SubmissionFormat::KernelBenchPython;
  else if (has_model && has_inputs)
    facts_.format = SubmissionFormat::Task;
  else
    facts_.format = SubmissionFormat::PythonOther;
}

}  // namespace kgate::python::detail

namespace kgate::python::detail {

// How often an identifier `name` appears in the module (a function's uses as a value or callee, and
// its own definition's name).
size_t Extractor::identifier_uses(const std::string& name) {
  if (auto known = identifier_uses_.find(name); known != identifier_uses_.end()) return known->second;
  size_t count = 0;
  std::vector<TSNode> stack{root_};
  while (!stack.empty() && stack.size() < 100000) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts::is(n, "identifier")) {
      if (ts::text(n, src_) == name) ++count;
      continue;
    }
    for (TSNode c : ts::named_children(n)) stack.push_back(c);
  }
  identifier_uses_[name] = count;
  return count;
}

// A parameter of a module-level helper that every call of the helper in this file fills with a tensor
// its caller made (not an input of the harness, nor a view of one), where the helper is used only
// through those calls and is not an entry: writing into it mutates no input (a CuTe DSL helper that
// fills a fresh layout buffer).
bool Extractor::param_bound_fresh(int fi, const std::string& name) {
  if (fi < 0 || name.empty() || std::count(facts_.entries.begin(), facts_.entries.end(), fi)) return false;
  if (static_cast<size_t>(fi) >= function_scope_.size()) return false;
  const int scope = function_scope_[fi];
  if (scope < 0 || scopes_[scope].class_index >= 0) return false;
  const auto sites = call_sites_.find(fi);
  if (sites == call_sites_.end() || sites->second.empty()) return false;
  for (const CallSite& site : sites->second)
    for (TSNode a : ts::named_children(site.args))
      if (ts::is(a, "list_splat") || ts::is(a, "dictionary_splat")) return false;
  // Its name: the definition and one callee per call, nothing else (not passed or stored as a value).
  if (identifier_uses(facts_.functions[fi].name) != sites->second.size() + 1) return false;
  for (const Binding& b : param_arguments(scope, name))
    if (root_kind(b.expr, b.scope) == ReceiverKind::Param) return false;  // a parameter, rebound or not
  return true;
}

// Writes and in-place calls on a helper's parameter that param_bound_fresh clears are writes into the
// caller's own tensor: their root is a value, not a parameter.
void Extractor::finish_param_writes() {
  const auto root_of = [](const std::string& text) {
    const size_t end = text.find_first_of(".[( ");
    return text.substr(0, end);
  };
  for (AttributeWrite& w : facts_.writes)
    if (w.root == ReceiverKind::Param && param_bound_fresh(w.function, root_of(w.target))) w.root = ReceiverKind::Value;
  for (Call& c : facts_.calls)
    if (c.receiver == ReceiverKind::Param && param_bound_fresh(c.function, root_of(c.callee)))
      c.receiver = ReceiverKind::Value;
}

}  // namespace kgate::python::detail
