// Extractor, pass 2: the facts of assignments, module bindings, names, strings, imports, classes and
// handlers, and the buffers written in place.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "analyzers/core/dtype_rank.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {
namespace {

// A value that names an attribute of a module (torch.Tensor.allclose, sys.modules[...]), not a member
// reached through an instance of a class (`net.norm` of `net = Net(dim)`: class_member's path for an
// attribute no method names, with a value receiver): writing it writes another module.
bool module_path(const Value& v) { return v.k == Value::K::Path && v.receiver != ReceiverKind::Value; }

}  // namespace

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

void Extractor::note_environment(TSNode args, int scope) {
  auto key = fold_in(positional_arg(args, 0), scope);
  if (!key || key->text != "TRITON_F32_DEFAULT") return;
  if (auto v = fold_in(positional_arg(args, 1), scope)) triton_f32_default_ = v->text;
}

// A tl.dot that leaves input_precision to Triton's default rounds fp32 operands to TF32 (Triton's
// default, unless TRITON_F32_DEFAULT says "ieee" or "tf32x3"). Not judged: a function that names the
// precision on another tl.dot (it picks per dtype), a module that converts below fp32 elsewhere
// outside set-up code (the operands are then likely narrower, and that conversion is the finding), and
// a dot whose operands are int8 data the task hands in (dot_operands_narrow: TF32 holds them exactly).
void Extractor::finish_dot_defaults() {
  if (triton_f32_default_ == "ieee" || triton_f32_default_ == "tf32x3") return;
  for (size_t i = 0; i < facts_.casts.size(); ++i) {
    const Cast& c = facts_.casts[i];
    if (c.to_dtype != "tf32" && contract_relation(c.to_dtype, "fp32") == "below" && !cast_guards_[i].script_main &&
        !setup_function(c.function))
      return;
  }
  for (const DotDefault& d : dot_defaults_)
    if (!dot_precision_said_.count(fn_of(d.scope)) && !dot_operands_narrow(d))
      add_cast("tf32", "dot-default", d.node, d.scope, d.guard);
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
    const size_t mutations_before = global_mutations_.size();
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
      w.root = module_path(ov) ? ReceiverKind::Module : root_kind(obj, scope);
      w.entry_rebinding = entry_rebinding_at_.count(ts_node_start_byte(node)) > 0;
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
      if (base == "os.environ" && key && key->text == "TRITON_F32_DEFAULT")
        if (auto v = fold_in(right, scope)) triton_f32_default_ = v->text;
      if (targets.size() == 1)
        if (const std::string held = container_key(obj, scope); !held.empty())
          subscript_fills_[held].push_back(Binding{right, scope});
      w.root = module_path(ov) ? ReceiverKind::Module : root_kind(obj, scope);
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
      // `_compiled[n] = cute.compile(...)`, `global _k; _k = ...`: the module-level cache keeps kernels.
      if (w.stores_kernel && global_mutations_.size() > mutations_before) global_mutations_.back().stores_kernel = true;
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
