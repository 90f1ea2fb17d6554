// Extractor, name resolution: what a name or expression evaluates to, constants, local classes and kernel values.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/python/kernel_languages.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

Found Extractor::find_name(const std::string& name, int scope) const {
  int s = scope;
  while (s >= 0) {
    const Scope& sc = scopes_[s];
    if (sc.globals_declared.count(name) && s != 0) {
      s = 0;
      continue;
    }
    if (!sc.self_name.empty() && name == sc.self_name) return {Found::K::Self, s};
    if (sc.params.count(name)) return {Found::K::Param, s, -1, name};
    if (auto it = sc.local_functions.find(name); it != sc.local_functions.end())
      return {Found::K::Function, s, it->second};
    if (auto it = sc.local_classes.find(name); it != sc.local_classes.end()) return {Found::K::Class, s, it->second};
    if (auto it = sc.imports.find(name); it != sc.imports.end()) return {Found::K::Import, s, -1, it->second};
    if (auto it = sc.bindings.find(name); it != sc.bindings.end()) return {Found::K::Binding, s, -1, {}, &it->second};
    s = sc.parent;
  }
  if (builtin_names().count(name)) return {Found::K::Builtin, 0, -1, "builtins." + name};
  return {};
}

// For constant folding: an identifier bound exactly once (module constants, source strings).
std::optional<TSNode> Extractor::lookup_constant(TSNode id) const {
  std::string name(ts::text(id, src_));
  if (mutated_names_.count(name)) return std::nullopt;
  int scope = current_scope_;
  Found f = find_name(name, scope);
  // Only a name bound exactly once is a constant: a second binding (a reassignment, `+=`, a global
  // rebound in a function) may run before the use, and folding must never guess.
  if (f.k == Found::K::Binding && f.bindings && f.bindings->size() == 1 && !ts_node_is_null(f.bindings->front().expr))
    return f.bindings->front().expr;
  return std::nullopt;
}

Value Extractor::attribute_of(const Value& obj, const std::string& attr, int depth) {
  Value v;
  switch (obj.k) {
    case Value::K::Path:
      v.k = Value::K::Path;
      // __builtins__ is the builtins module (or its dict): __builtins__.eval is builtins.eval.
      v.path = (obj.path == "builtins.__builtins__" ? std::string("builtins") : obj.path) + "." + attr;
      v.dynamic = obj.dynamic;
      v.receiver = ReceiverKind::Module;
      // torch.ops.<ns>.<op> of an op this file registers runs the function that implements it.
      if (v.path.rfind("torch.ops.", 0) == 0)
        if (const int op = custom_op_function(v.path); op >= 0) {
          v.k = Value::K::Function;
          v.index = op;
        }
      return v;
    case Value::K::Instance:
      if (obj.index >= 0) {
        Value m = class_member(obj.index, attr, depth, ReceiverKind::Value);
        const bool missed = m.k == Value::K::Path && m.path == classes_[obj.index].name + "." + attr;
        if (missed && attribute_hooks(obj.index).getattr) {  // as for self, below
          if (std::optional<Value> got = getattr_value(obj.index, attr, depth)) return *got;
          m.k = Value::K::Unknown;
          m.unresolved = true;
        }
        return m;
      }
      // The parameters and buffers of a torch.nn module (self.fc.weight) are tensors: handing them to
      // a kernel is what a fused submission does with the reference's layers.
      if (obj.path.rfind("torch.nn.", 0) == 0 &&
          (attr.rfind("weight", 0) == 0 || attr.rfind("bias", 0) == 0 || attr.rfind("running_", 0) == 0 ||
           attr.rfind("in_proj_", 0) == 0 || attr == "num_batches_tracked")) {
        v.k = Value::K::Tensor;
        v.path = obj.path + "." + attr;
        v.receiver = ReceiverKind::Value;
        return v;
      }
      v.k = Value::K::Path;
      v.path = (class_like(obj.path) ? obj.path : std::string("torch.Tensor")) + "." + attr;
      v.receiver = class_like(obj.path) ? ReceiverKind::Value : ReceiverKind::Value;
      return v;
    case Value::K::Class: {
      if (attr == "apply" && is_autograd_function(obj.index)) {
        auto it = classes_[obj.index].methods.find("forward");
        if (it != classes_[obj.index].methods.end()) {
          v.k = Value::K::Function;
          v.index = it->second;
          v.receiver = ReceiverKind::Value;
          return v;
        }
      }
      Value m = class_member(obj.index, attr, depth, ReceiverKind::Value);
      // A name the class lacks goes to its metaclass's __getattr__, where the file defines one.
      if (const TSNode meta = classes_[obj.index].metaclass;
          !ts_node_is_null(meta) && m.k == Value::K::Path && m.path == classes_[obj.index].name + "." + attr)
        if (const Value mc = eval(meta, classes_[obj.index].scope, depth + 1);
            mc.k == Value::K::Class && mc.index >= 0 && mc.index != obj.index && attribute_hooks(mc.index).getattr) {
          if (std::optional<Value> got = getattr_value(mc.index, attr, depth)) return *got;
          m.k = Value::K::Unknown;
          m.unresolved = true;
        }
      return m;
    }
    case Value::K::Self: {
      // Python looks methods up on the runtime class: when ModelNew derives from the class this
      // method was written in, ModelNew's overrides win.
      int ci = obj.index;
      if (ci >= 0 && model_class_ >= 0 && ci != model_class_ && derives_from(model_class_, ci)) ci = model_class_;
      if (attr == "__class__") {
        Value c;
        c.k = Value::K::Class;
        c.index = ci;
        return c;
      }
      // A class of the file that defines __getattribute__ decides every attribute read on its
      // instances: what runs is known only at run time.
      if (ci >= 0 && attribute_hooks(ci).getattribute) {
        v.k = Value::K::Unknown;
        v.path = "self." + attr;
        v.receiver = ReceiverKind::Self;
        v.unresolved = true;
        return v;
      }
      if (ci >= 0) {
        auto it = classes_[ci].self_attrs.find(attr);
        // Methods first (as Python looks up the type for functions it binds).
        // Methods, and callables the class body binds (a descriptor gives what its __get__ returns).
        Value m = class_member(ci, attr, depth, ReceiverKind::Self);
        if (!(m.k == Value::K::Path && m.path == classes_[ci].name + "." + attr)) return m;
        if (it != classes_[ci].self_attrs.end()) {
          Value bound = eval_binding(it->second, depth);
          bound.receiver = ReceiverKind::Self;
          if (bound.k == Value::K::Tensor) {
            bound.path = "self." + attr;
          }
          return bound;
        }
      }
      v.k = Value::K::Tensor;
      v.path = "self." + attr;
      v.receiver = ReceiverKind::Self;
      // Neither a method nor an attribute the class sets: a __getattr__ of the file's classes
      // supplies it. What it returns for this name, where the gate can name it; otherwise what runs is
      // known only at run time.
      if (ci >= 0 && attribute_hooks(ci).getattr) {
        if (std::optional<Value> got = getattr_value(ci, attr, depth)) return *got;
        v.k = Value::K::Unknown;
        v.unresolved = true;
      }
      return v;
    }
    case Value::K::Extension:
      v.k = Value::K::ExtFunction;
      v.index = obj.index;
      v.path = attr;
      v.receiver = ReceiverKind::Module;
      return v;
    case Value::K::Kernel:
      // A handle's methods (get_function, launch, __call__) stay with the kernel.
      v.k = Value::K::Kernel;
      v.index = obj.index;
      v.path = obj.path + "." + attr;
      v.receiver = ReceiverKind::Value;
      return v;
    case Value::K::Function:
      // torch.ops.ns.op.default: the same registered op.
      if (attr == "default" && obj.receiver == ReceiverKind::Module) return obj;
      if (auto fa = function_attrs_.find(obj.index); fa != function_attrs_.end())  // helper.op = torch.relu
        if (auto it = fa->second.find(attr); it != fa->second.end()) return eval_binding(it->second, depth);
      v.k = Value::K::Path;
      v.path = facts_.functions[obj.index].qualname + "." + attr;
      v.receiver = ReceiverKind::Value;
      return v;
    case Value::K::Str:
    case Value::K::List:
    case Value::K::Dict:
      v.k = Value::K::Path;
      v.path = std::string(obj.k == Value::K::Str    ? "builtins.str."
                           : obj.k == Value::K::List ? "builtins.list."
                                                     : "builtins.dict.") +
               attr;
      v.receiver = ReceiverKind::Literal;
      return v;
    case Value::K::Param:
    case Value::K::Tensor:
    case Value::K::Unknown:
    case Value::K::ExtFunction:
      v.k = Value::K::Path;
      if (attr == "__class__" && obj.k != Value::K::Unknown) {  // x.__class__.relu is torch.Tensor.relu
        v.path = "torch.Tensor";
        v.receiver = ReceiverKind::Module;
        return v;
      }
      v.path = "torch.Tensor." + attr;
      v.receiver = obj.k == Value::K::Param
                       ? ReceiverKind::Param
                       : (obj.receiver == ReceiverKind::Self ? ReceiverKind::Self : ReceiverKind::Value);
      return v;
  }
  return v;
}

bool Extractor::derives_from(int derived, int base) {
  std::unordered_set<int> seen;
  std::vector<int> stack = {derived};
  while (!stack.empty()) {
    int c = stack.back();
    stack.pop_back();
    if (c == base) return true;
    if (c < 0 || !seen.insert(c).second) continue;
    for (TSNode b : classes_[c].base_nodes) {
      Value bv = eval(b, classes_[c].scope, 1);
      if (bv.k == Value::K::Class) stack.push_back(bv.index);
    }
  }
  return false;
}

bool Extractor::is_autograd_function(int ci) {
  for (const auto& base : class_bases(ci))
    if (base.find("autograd.Function") != std::string::npos) return true;
  return false;
}

std::vector<std::string> Extractor::class_bases(int ci) {
  std::vector<std::string> out;
  for (TSNode b : classes_[ci].base_nodes) {
    Value v = eval(b, classes_[ci].scope, 1);
    out.push_back(value_path(v, b));
  }
  return out;
}

// A method or attribute of a local class, following local base classes.
Value Extractor::class_member(int ci, const std::string& attr, int depth, ReceiverKind receiver) {
  std::unordered_set<int> seen;
  int c = ci;
  while (c >= 0 && !seen.count(c) && depth < kMaxEvalDepth) {
    seen.insert(c);
    auto it = classes_[c].methods.find(attr);
    if (it != classes_[c].methods.end()) {
      if (std::optional<Value> got = property_value(it->second, depth)) return *got;
      Value v;
      v.k = Value::K::Function;
      v.index = it->second;
      v.receiver = receiver;
      return v;
    }
    if (std::optional<Value> level = class_level(c, attr, depth, receiver)) return *level;
    int next = -1;
    for (TSNode b : classes_[c].base_nodes) {
      Value bv = eval(b, classes_[c].scope, depth + 1);
      if (bv.k == Value::K::Class) {
        next = bv.index;
        break;
      }
    }
    c = next;
  }
  Value v;
  v.k = Value::K::Path;
  v.path = classes_[ci].name + "." + attr;
  v.receiver = receiver;
  return v;
}

std::string Extractor::value_path(const Value& v, TSNode node) const {
  switch (v.k) {
    case Value::K::Path:
    case Value::K::Instance:
      return v.index >= 0 && v.k == Value::K::Instance ? classes_[v.index].name : v.path;
    case Value::K::Function:
      return facts_.functions[v.index].qualname;
    case Value::K::Class:
      return classes_[v.index].name;
    case Value::K::Extension:
      return "extension." + facts_.extensions[v.index].name;
    case Value::K::Kernel:
      return v.path;
    case Value::K::ExtFunction:
      return "extension." + facts_.extensions[v.index].name + "." + v.path;
    case Value::K::Self:
      return "self";
    case Value::K::Param:
      return v.path;
    case Value::K::Tensor:
      if (!v.path.empty()) return v.path;
      [[fallthrough]];
    default:
      return std::string(ts::text(node, src_));
  }
}

std::optional<FoldedString> Extractor::fold_in(TSNode expr, int scope) {
  int saved = current_scope_;
  current_scope_ = scope;
  auto r = folder_.fold_string(expr);
  current_scope_ = saved;
  return r;
}

TSNode Extractor::positional_arg(TSNode args, uint32_t index) const {
  uint32_t n = ts::named_count(args), seen = 0;
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts::named_child(args, i);
    if (ts::is(a, "keyword_argument") || ts::is(a, "comment")) continue;
    if (seen++ == index) return a;
  }
  return TSNode{};
}

TSNode Extractor::keyword_arg(TSNode args, std::string_view name) const {
  uint32_t n = ts::named_count(args);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts::named_child(args, i);
    if (ts::is(a, "keyword_argument") && ts::text(ts::field(a, "name"), src_) == name) return ts::field(a, "value");
  }
  return TSNode{};
}

Value Extractor::eval(TSNode node, int scope, int depth) {
  Value v;
  if (ts_node_is_null(node) || depth > kMaxEvalDepth) return v;
  std::string_view t = ts::type(node);
  if (t == "identifier") {
    std::string name(ts::text(node, src_));
    Found f = find_name(name, scope);
    switch (f.k) {
      case Found::K::Self:
        v.k = Value::K::Self;
        v.index = scopes_[f.scope].class_index;
        return v;
      case Found::K::Param:
        v.k = Value::K::Param;
        v.path = name;
        return v;
      case Found::K::Function:
        v.k = Value::K::Function;
        v.index = f.index;
        return v;
      case Found::K::Class:
        v.k = Value::K::Class;
        v.index = f.index;
        return v;
      case Found::K::Import:
        if (int e = sibling_extension(f.path); e >= 0) {
          const size_t dot = f.path.find('.');
          v.index = e;
          v.receiver = ReceiverKind::Module;
          if (dot == std::string::npos) {
            v.k = Value::K::Extension;
          } else {  // from module import function
            v.k = Value::K::ExtFunction;
            v.path = f.path.substr(dot + 1);
          }
          return v;
        }
        [[fallthrough]];
      case Found::K::Builtin:
        v.k = Value::K::Path;
        v.path = f.path;
        v.receiver = ReceiverKind::Module;
        return v;
      case Found::K::Binding: {
        // In its own scope a local is what its last binding before the use made it (`buf = x.new_zeros(n)`
        // here, `buf = x` in a later branch); from a nested function, any binding may have run.
        Value b = eval_binding(*f.bindings, depth, f.scope == scope ? node : TSNode{});
        if (b.k == Value::K::Tensor && b.path.empty()) b.path = name;
        return b;
      }
      default:
        v.k = Value::K::Unknown;
        v.path = name;
        return v;
    }
  }
  if (t == "attribute") {
    if (const auto member = enum_member_value(node, scope, depth); member && !member->empty()) {  // Act.RELU.value
      Value held = eval_binding(*member, depth + 1);
      if (held.k == Value::K::Tensor) held.k = Value::K::Unknown;  // a literal the gate does not model
      return held;
    }
    Value obj = eval(ts::field(node, "object"), scope, depth + 1);
    const std::string attr(ts::text(ts::field(node, "attribute"), src_));
    // A field of an object whose construction the file shows (a namedtuple, a dataclass, type(...)).
    if (std::optional<Value> field = built_attribute(node, obj, attr, scope, depth)) return *field;
    return attribute_of(obj, attr, depth + 1);
  }
  if (t == "parenthesized_expression") return eval(ts::named_child(node, 0), scope, depth + 1);
  if (t == "string" || t == "concatenated_string") {
    v.k = Value::K::Str;
    return v;
  }
  if (t == "list" || t == "tuple" || t == "list_comprehension" || t == "set") {
    v.k = Value::K::List;
    return v;
  }
  if (t == "dictionary" || t == "dictionary_comprehension") {
    v.k = Value::K::Dict;
    return v;
  }
  if (t == "lambda") {
    for (size_t i = 0; i < function_nodes_.size(); ++i)
      if (ts_node_eq(function_nodes_[i], node)) {
        v.k = Value::K::Function;
        v.index = static_cast<int>(i);
        return v;
      }
    return v;
  }
  if (t == "subscript") {
    TSNode obj = ts::field(node, "value");
    Value base = eval(obj, scope, depth + 1);
    if (base.k == Value::K::Path) {
      TSNode key = ts::field(node, "subscript");
      if (base.path == "builtins.__builtins__")  // __builtins__["eval"]: the builtins module as a dict
        if (auto k = fold_in(key, scope)) {
          v.k = Value::K::Path;
          v.path = "builtins." + k->text;
          v.dynamic = true;
          v.receiver = ReceiverKind::Module;
          return v;
        }
      constexpr std::string_view kDict = ".__dict__";
      if (base.path.size() > kDict.size() &&
          base.path.compare(base.path.size() - kDict.size(), kDict.size(), kDict) == 0) {
        if (auto k = fold_in(key, scope)) {
          v.k = Value::K::Path;
          v.path = base.path.substr(0, base.path.size() - kDict.size()) + "." + k->text;
          v.dynamic = true;
          v.receiver = ReceiverKind::Module;
          return v;
        }
        v.k = Value::K::Unknown;
        v.unresolved = true;
        v.path = base.path.substr(0, base.path.size() - kDict.size()) + ".?";
        return v;
      }
      v.k = Value::K::Path;
      v.path = base.path + "[]";
      v.receiver = ReceiverKind::Module;
      return v;
    }
    // An element of a container of kernels (a dict of compiled kernels per shape, Triton kernels
    // per dtype) is a kernel.
    if (Value element = kernel_element(obj, scope, depth + 1); element.k != Value::K::Unknown) return element;
    v.k = Value::K::Tensor;
    v.receiver = base.k == Value::K::Self ? ReceiverKind::Self : base.receiver;
    return v;
  }
  if (t == "call") return eval_call(node, scope, depth);
  return v;
}

// A kernel-valued element of `container`: from `container[k] = v` stores (by the container's text),
// or from the literal or comprehension the name is bound to. Unknown when no element is a kernel.
Value Extractor::kernel_element(TSNode container, int scope, int depth) {
  Value none;
  if (depth > kMaxEvalDepth) return none;
  // Memoised per container text and scope (an element's kernel does not depend on the key), and
  // marked while computed so that a container holding itself ends.
  std::string memo_key = std::to_string(scope) + ":" + std::string(ts::text(container, src_));
  if (auto memo = kernel_elements_.find(memo_key); memo != kernel_elements_.end()) return memo->second;
  kernel_elements_.emplace(memo_key, none);
  Value found = find_kernel_element(container, scope, depth);
  kernel_elements_[memo_key] = found;
  return found;
}

// What a container may hold: values stored into it by subscript (by its text), and the elements of
// the literal or comprehension a name is bound to.
std::vector<Binding> Extractor::element_candidates(TSNode container, int scope) const {
  std::vector<Binding> candidates;
  if (auto it = element_bindings_.find(std::string(ts::text(container, src_))); it != element_bindings_.end())
    candidates = it->second;
  if (ts::is(container, "identifier")) {
    Found f = find_name(std::string(ts::text(container, src_)), scope);
    if (f.k == Found::K::Binding)
      for (const Binding& b : *f.bindings) {
        if (ts_node_is_null(b.expr)) continue;
        std::string_view kind = ts::type(b.expr);
        if (kind == "dictionary") {
          for (TSNode pair : ts::named_children(b.expr))
            if (ts::is(pair, "pair")) candidates.push_back(Binding{ts::field(pair, "value"), b.scope});
        } else if (kind == "dictionary_comprehension") {
          TSNode body = ts::field(b.expr, "body");
          if (ts::is(body, "pair")) candidates.push_back(Binding{ts::field(body, "value"), b.scope});
        } else if (kind == "list" || kind == "tuple") {
          for (TSNode e : ts::named_children(b.expr)) candidates.push_back(Binding{e, b.scope});
        } else if (kind == "list_comprehension") {
          candidates.push_back(Binding{ts::field(b.expr, "body"), b.scope});
        }
      }
  }
  return candidates;
}

std::vector<int> Extractor::kernel_functions_in(TSNode container, int scope) {
  std::vector<int> out;
  for (const Binding& c : element_candidates(container, scope)) {
    Value e = eval(c.expr, c.scope, 1);
    if (kernel_function(e)) out.push_back(e.index);
  }
  return out;
}

Value Extractor::find_kernel_element(TSNode container, int scope, int depth) {
  Value none;
  const std::vector<Binding> candidates = element_candidates(container, scope);
  // A library function among the elements wins: calling an element that may be torch.mm is a call of
  // torch.mm (a fallback held in a table, issue 24), even beside the submission's own kernels.
  Value kernel = none;
  for (const Binding& c : candidates) {
    Value e = eval(c.expr, c.scope, depth + 1);
    if (e.k == Value::K::Path && e.path.rfind("torch.", 0) == 0 && !is_dtype_path(e.path)) return e;
    if (kernel.k != Value::K::Unknown) continue;
    if (e.k == Value::K::Kernel || kernel_function(e)) kernel = e;
  }
  return kernel;
}

// What a local function returns, when it is a kernel: a builder that returns tilelang.compile(...),
// a factory that returns its nested helion or CuTe kernel, a getter of a kernel cache.
Value Extractor::returned_kernel(int fi, int depth) {
  Value none;
  auto it = return_exprs_.find(fi);
  if (it == return_exprs_.end() || depth > kMaxEvalDepth) return none;
  if (auto memo = returned_kernels_.find(fi); memo != returned_kernels_.end()) return memo->second;
  returned_kernels_.emplace(fi, none);  // a function that returns its own call ends here
  Value found = find_returned_kernel(it->second, depth);
  returned_kernels_[fi] = found;
  return found;
}

Value Extractor::find_returned_kernel(const std::vector<Binding>& returns, int depth) {
  Value none;
  for (const Binding& r : returns) {
    Value e = eval(r.expr, r.scope, depth + 1);
    if (e.k == Value::K::Kernel) return e;
    // A library function handed back (`return torch.matmul`): calling the result calls it.
    if (e.k == Value::K::Path && e.path.rfind("torch.", 0) == 0 && !is_dtype_path(e.path) &&
        ts::is(r.expr, "attribute"))
      return e;
    if (kernel_function(e)) {
      Value k;
      k.k = Value::K::Kernel;
      k.index = e.index;
      k.path = facts_.functions[e.index].qualname;
      return k;
    }
  }
  return none;
}

bool Extractor::is_kernel_factory(int fi) const {
  const auto& decorators = facts_.functions[fi].decorators;
  return std::any_of(decorators.begin(), decorators.end(),
                     [](const std::string& d) { return kernel_factory_decorator(d); });
}

std::optional<Value> Extractor::class_level(int ci, const std::string& attr, int depth, ReceiverKind receiver) {
  auto it = classes_[ci].class_attrs.find(attr);
  if (depth > kMaxEvalDepth) return std::nullopt;
  if (it == classes_[ci].class_attrs.end()) {  // set by a class decorator of the file
    std::optional<Value> set = decorator_set_attribute(ci, attr, depth);
    if (set) set->receiver = receiver;
    return set;
  }
  // act = property(lambda self: f): reading it gives what the getter returns.
  if (const TSNode expr = it->second.back().expr; ts::is(expr, "call"))
    if (const Value maker = eval(ts::field(expr, "function"), it->second.back().scope, depth + 1);
        maker.k == Value::K::Path && (maker.path == "builtins.property" || maker.path == "functools.cached_property")) {
      TSNode fget = positional_arg(ts::field(expr, "arguments"), 0);
      if (ts_node_is_null(fget)) fget = keyword_arg(ts::field(expr, "arguments"), "fget");
      if (const Value getter = eval(fget, it->second.back().scope, depth + 1); getter.k == Value::K::Function)
        if (std::optional<Value> got = returned_callable(getter.index, depth + 1)) return got;
    }
  Value bound = eval_binding(it->second, depth + 1);
  // A descriptor: reading the attribute calls its class's __get__, and gives what that returns.
  if (bound.k == Value::K::Instance && bound.index >= 0) {
    auto get = classes_[bound.index].methods.find("__get__");
    if (get != classes_[bound.index].methods.end()) {
      Value got = returned_kernel(get->second, depth + 1);
      if (got.k == Value::K::Unknown) {
        got.unresolved = true;
        got.path = classes_[ci].name + "." + attr + ".__get__";
      }
      got.receiver = receiver;
      return got;
    }
  }
  const bool callable = bound.k == Value::K::Function || bound.k == Value::K::Kernel || bound.k == Value::K::Instance ||
                        (bound.k == Value::K::Path && !is_dtype_path(bound.path));
  if (!callable) return std::nullopt;
  bound.receiver = receiver;
  return bound;
}

int Extractor::custom_op_function(const std::string& path) {
  if (!custom_ops_) {
    custom_ops_.emplace();
    static const std::unordered_set<std::string> kRegistrars = {
        "torch.library.custom_op", "torch.library.register_kernel",   "torch.library.impl",
        "torch.library.triton_op", "torch._library.triton.triton_op", "torch._library.custom_ops.custom_op"};
    note_library_impls(root_, 0);
    for (size_t fi = 0; fi < decorator_nodes_.size(); ++fi)
      for (TSNode d : decorator_nodes_[fi]) {
        if (!ts::is(d, "call")) continue;
        const Value registrar =
            eval(ts::field(d, "function"), function_scope_[fi] >= 0 ? scopes_[function_scope_[fi]].parent : 0, 1);
        if (registrar.k != Value::K::Path || !kRegistrars.count(registrar.path)) continue;
        TSNode first = positional_arg(ts::field(d, "arguments"), 0);
        std::string qualified;
        if (auto lib = libraries_.find(std::string(ts::text(first, src_))); lib != libraries_.end()) {
          // `@torch.library.impl(lib, "op", "CUDA")`: the op of the library object's namespace.
          if (auto op = fold_in(positional_arg(ts::field(d, "arguments"), 1), 0))
            qualified = lib->second + "::" + op->text;
        } else if (auto name = fold_in(first, 0)) {
          qualified = name->text;
        }
        const size_t sep = qualified.find("::");
        if (sep == std::string::npos) continue;
        std::string op = qualified.substr(sep + 2);
        if (const size_t dot = op.find('.'); dot != std::string::npos) op = op.substr(0, dot);  // "op.overload"
        (*custom_ops_)["torch.ops." + qualified.substr(0, sep) + "." + op] = static_cast<int>(fi);
      }
  }
  auto it = custom_ops_->find(path);
  return it == custom_ops_->end() ? -1 : it->second;
}

// The object form: `lib = torch.library.Library("ns", "DEF")` then `lib.impl("op", fn, "CUDA")` (the
// decorator `@torch.library.impl(lib, "op", ...)` is read with the other registrars).
void Extractor::note_library_impls(TSNode n, int depth) {
  if (ts_node_is_null(n) || depth > 400) return;
  if (ts::is(n, "assignment")) {
    TSNode left = ts::field(n, "left");
    TSNode right = ts::field(n, "right");
    if (ts::is(left, "identifier") && ts::is(right, "call")) {
      const Value made = eval(ts::field(right, "function"), 0, 1);
      if (made.k == Value::K::Path && made.path == "torch.library.Library")
        if (auto ns = fold_in(positional_arg(ts::field(right, "arguments"), 0), 0))
          libraries_[std::string(ts::text(left, src_))] = ns->text;
    }
  }
  if (ts::is(n, "call")) {
    TSNode fn = ts::field(n, "function");
    TSNode args = ts::field(n, "arguments");
    const bool impl = ts::is(fn, "attribute") && ts::text(ts::field(fn, "attribute"), src_) == "impl";
    auto lib = impl ? libraries_.find(std::string(ts::text(ts::field(fn, "object"), src_))) : libraries_.end();
    if (lib != libraries_.end())
      if (auto op = fold_in(positional_arg(args, 0), 0)) {
        const Value v = eval(positional_arg(args, 1), 0, 1);
        std::string name = op->text;
        if (const size_t dot = name.find('.'); dot != std::string::npos) name = name.substr(0, dot);  // "op.overload"
        if (v.k == Value::K::Function) (*custom_ops_)["torch.ops." + lib->second + "." + name] = v.index;
      }
  }
  for (uint32_t i = 0; i < ts::named_count(n); ++i) note_library_impls(ts::named_child(n, i), depth + 1);
}

}  // namespace kgate::python::detail
