// Python/Triton fact extraction: scopes and bindings (pass 1), facts with guards (pass 2),
// then reachability from ModelNew.forward and the per-return data flow.
#include "analyzers/python/python_facts.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analyzers/metrics/python_metrics.h"
#include "analyzers/python/const_fold.h"
#include "analyzers/python/kernel_languages.h"
#include "analyzers/python/ts_node.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace kgate::python {
namespace {

constexpr int kMaxEvalDepth = 20;

const std::unordered_set<std::string>& builtin_names() {
  static const std::unordered_set<std::string> names = {
      "abs", "all", "any", "bool", "breakpoint", "bytes", "callable", "chr", "classmethod", "compile", "delattr",
      "dict", "dir", "divmod", "enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr",
      "globals", "hasattr", "hash", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
      "list", "locals", "map", "max", "min", "next", "object", "open", "ord", "pow", "print", "property",
      "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum",
      "super", "tuple", "type", "vars", "zip", "__import__", "__builtins__", "memoryview", "bytearray", "exit", "quit"};
  return names;
}

// Methods that return their receiver's data unchanged (a view, a cast or a copy): the value is still
// "the input" for returns-input, and still "the buffer" for the written-by-kernel question.
const std::unordered_set<std::string>& passthrough_methods() {
  static const std::unordered_set<std::string> m = {
      "view", "view_as", "reshape", "reshape_as", "contiguous", "clone", "detach", "to", "float", "double", "half",
      "bfloat16", "type", "type_as", "flatten", "squeeze", "unsqueeze", "permute", "transpose", "t", "expand",
      "expand_as", "as_strided", "narrow", "cuda", "cpu", "data", "requires_grad_", "unflatten", "movedim"};
  return m;
}

const std::unordered_set<std::string>& container_read_methods() {
  static const std::unordered_set<std::string> m = {"pop", "get", "popitem", "popleft", "__getitem__", "setdefault"};
  return m;
}

const std::unordered_set<std::string>& container_write_methods() {
  static const std::unordered_set<std::string> m = {"append", "extend", "update", "setdefault", "insert",
                                                    "add", "appendleft", "__setitem__", "put"};
  return m;
}

std::string last_component(std::string_view path) {
  size_t dot = path.rfind('.');
  return std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

bool class_like(std::string_view path) {
  // Parameters and buffers are tensors: their methods are tensor methods.
  if (path == "torch.nn.Parameter" || path == "torch.nn.parameter.Parameter" || path == "torch.nn.Buffer" ||
      path == "torch.Tensor")
    return false;
  std::string last = last_component(path);
  return !last.empty() && std::isupper(static_cast<unsigned char>(last[0]));
}

std::string canonical_dtype(std::string path) {
  static const std::unordered_map<std::string, std::string> aliases = {
      {"torch.half", "torch.float16"}, {"torch.float", "torch.float32"}, {"torch.double", "torch.float64"},
      {"torch.long", "torch.int64"},   {"torch.int", "torch.int32"},    {"torch.short", "torch.int16"},
      {"torch.cfloat", "torch.complex64"}};
  auto it = aliases.find(path);
  return it == aliases.end() ? path : it->second;
}

bool is_dtype_path(std::string_view path) {
  static const std::unordered_set<std::string> dtypes = {
      "float16", "float32", "float64", "bfloat16", "half", "float", "double", "int8", "uint8", "int16", "int32",
      "int64", "long", "int", "short", "bool", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
      "float8e4nv", "float8e5", "float8e4b15", "float8e4b8", "float8e5b16", "tf32", "complex64", "cfloat"};
  if (path.rfind("torch.", 0) != 0 && path.rfind("triton.language.", 0) != 0 && path.rfind("numpy.", 0) != 0)
    return false;
  return dtypes.count(last_component(path)) > 0;
}

// ----- Values: what an expression evaluates to, as far as names go -----

struct Value {
  // Kernel: a compiled kernel handle of a kernel language (kernel_languages.h); calling it launches.
  enum class K { Unknown, Path, Instance, Function, Class, Extension, ExtFunction, Str, List, Dict, Param, Self, Tensor, Kernel };
  K k = K::Unknown;
  std::string path;  // Path/Instance: qualified name; ExtFunction: function name; Param: its name
  int index = -1;    // Function, Class (class table index), Extension, ExtFunction (extension)
  bool dynamic = false;
  bool unresolved = false;
  ReceiverKind receiver = ReceiverKind::None;  // for values reached through an attribute
};

struct Binding {
  TSNode expr{};  // null: bound to something we do not follow (for loops, unpacking)
  int scope = 0;
};

struct Scope {
  int function = -1;  // facts.functions index; -1 for the module scope
  int parent = -1;    // enclosing scope (class bodies are not scopes, as in Python)
  int class_index = -1;
  std::string self_name;
  std::unordered_set<std::string> params;
  std::unordered_map<std::string, std::vector<Binding>> bindings;
  std::unordered_map<std::string, std::string> imports;
  std::unordered_map<std::string, int> local_functions;
  std::unordered_map<std::string, int> local_classes;
  std::unordered_set<std::string> globals_declared;
  // Facts of the function's body that the return analysis reads.
  std::unordered_set<std::string> written_names;
};

struct ClassInfo {
  std::string name;
  TSNode node{};
  int scope = 0;  // scope the class statement sits in
  std::vector<TSNode> base_nodes;
  std::unordered_map<std::string, int> methods;  // name -> function index
  std::unordered_map<std::string, std::vector<Binding>> self_attrs;
};

struct Edge {
  int from = -1;
  int to = -1;
  bool dead = false;
  bool definition = false;  // a def/lambda nested in `from`: reached with it, but not run by it
};

struct GuardFrame {
  Guard guard;
};

class Extractor {
 public:
  Extractor(const SourceFile& file, const ingest::Limits& limits, FactSet& facts, std::vector<Diagnostic>& diags,
            const HarnessChoice& harness)
      : file_(file), src_(file.text), limits_(limits), facts_(facts), diags_(diags), harness_(harness),
        folder_(src_, [this](TSNode id) { return lookup_constant(id); }) {}

  void run(TSNode root) {
    scopes_.push_back(Scope{});  // module scope
    collect(root, 0, -1);
    classify_functions();
    choose_harness();
    find_entries();
    Guard none;
    walk(root, 0, none);
    link_extension_calls_by_name();
    compute_reachability();
    finish_returns();
    finish_handlers();
    finish_globals();
    decide_format();
    mark_harness_imports();
    finish_outputs();
    finish_launch_arguments();
  }

 private:
  // ===== Pass 1: scopes, functions, classes, bindings, imports =====

  void add_function(TSNode def, TSNode name_node, int scope, int class_index, FunctionKind kind,
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

  void bind_target(TSNode target, TSNode value, int scope, int class_index) {
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
      // anything else (unpacking a call's result) is bound to nothing we follow.
      uint32_t n = ts::named_count(target);
      const bool paired = !ts_node_is_null(value) &&
                          (ts::is(value, "expression_list") || ts::is(value, "tuple") || ts::is(value, "list")) &&
                          ts::named_count(value) == n;
      for (uint32_t i = 0; i < n; ++i)
        bind_target(ts::named_child(target, i), paired ? ts::named_child(value, i) : TSNode{}, scope, class_index);
    }
  }

  void collect_import(TSNode node, int scope) {
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

  void collect(TSNode node, int scope, int class_index) {
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
      if (ts::is(def, "function_definition")) {
        add_function(def, ts::field(def, "name"), scope, class_index, FunctionKind::Python, decorators);
      } else {
        collect(def, scope, class_index);
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
        if (!ts::is(b, "keyword_argument")) info.base_nodes.push_back(b);
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
      if (ts::is(right, "assignment")) {
        TSNode inner_left = ts::field(right, "left");
        bind_target(inner_left, value, scope, class_index);
      }
    } else if (t == "call") {
      // parts.append(...): a container filled at run time is not the literal it started as.
      TSNode fn = ts::field(node, "function");
      if (ts::is(fn, "attribute") && ts::is(ts::field(fn, "object"), "identifier") &&
          container_write_methods().count(std::string(ts::text(ts::field(fn, "attribute"), src_))))
        mutated_names_.insert(std::string(ts::text(ts::field(fn, "object"), src_)));
    } else if (t == "augmented_assignment") {
      // `x += y`: x is no longer the constant it was bound to (a flag, a source string).
      bind_target(ts::field(node, "left"), TSNode{}, scope, class_index);
    } else if (t == "named_expression") {
      bind_target(ts::field(node, "name"), ts::field(node, "value"), scope, class_index);
    } else if (t == "for_statement" || t == "for_in_clause") {
      bind_target(ts::field(node, "left"), TSNode{}, scope, class_index);
    } else if (t == "as_pattern_target") {
      bind_target(ts::named_child(node, 0), TSNode{}, scope, class_index);
    } else if (t == "return_statement" && scopes_[scope].function >= 0 && ts::named_count(node) > 0) {
      return_exprs_[scopes_[scope].function].push_back(Binding{ts::named_child(node, 0), scope});
    }
    for (TSNode child : ts::named_children(node)) collect(child, scope, class_index);
  }

  // ===== Name resolution =====

  // The scope chain lookup of Python (LEGB; class bodies skipped).
  struct Found {
    enum class K { None, Param, Self, Function, Class, Import, Binding, Builtin, Global } k = K::None;
    int scope = 0;
    int index = -1;
    std::string path;
    const std::vector<Binding>* bindings = nullptr;
  };

  Found find_name(const std::string& name, int scope) const {
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
      if (auto it = sc.local_classes.find(name); it != sc.local_classes.end())
        return {Found::K::Class, s, it->second};
      if (auto it = sc.imports.find(name); it != sc.imports.end()) return {Found::K::Import, s, -1, it->second};
      if (auto it = sc.bindings.find(name); it != sc.bindings.end())
        return {Found::K::Binding, s, -1, {}, &it->second};
      s = sc.parent;
    }
    if (builtin_names().count(name)) return {Found::K::Builtin, 0, -1, "builtins." + name};
    return {};
  }

  // For constant folding: an identifier bound exactly once (module constants, source strings).
  std::optional<TSNode> lookup_constant(TSNode id) const {
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

  Value eval_binding(const std::vector<Binding>& bindings, int depth) {
    if (bindings.empty() || ts_node_is_null(bindings.back().expr)) return Value{Value::K::Tensor};
    const Binding& b = bindings.back();
    int saved = current_scope_;
    current_scope_ = b.scope;
    Value v = eval(b.expr, b.scope, depth + 1);
    current_scope_ = saved;
    if (v.k == Value::K::Unknown) v.k = Value::K::Tensor;
    return v;
  }

  Value attribute_of(const Value& obj, const std::string& attr, int depth) {
    Value v;
    switch (obj.k) {
      case Value::K::Path:
        v.k = Value::K::Path;
        v.path = obj.path + "." + attr;
        v.dynamic = obj.dynamic;
        v.receiver = ReceiverKind::Module;
        return v;
      case Value::K::Instance:
        if (obj.index >= 0) return class_member(obj.index, attr, depth, ReceiverKind::Value);
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
        return class_member(obj.index, attr, depth, ReceiverKind::Value);
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
        if (ci >= 0) {
          auto it = classes_[ci].self_attrs.find(attr);
          // Methods first (as Python looks up the type for functions it binds).
          Value m = class_member(ci, attr, depth, ReceiverKind::Self);
          if (m.k == Value::K::Function) return m;
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
        v.k = Value::K::Path;
        v.path = facts_.functions[obj.index].qualname + "." + attr;
        v.receiver = ReceiverKind::Value;
        return v;
      case Value::K::Str:
      case Value::K::List:
      case Value::K::Dict:
        v.k = Value::K::Path;
        v.path = std::string(obj.k == Value::K::Str ? "builtins.str." : obj.k == Value::K::List ? "builtins.list." : "builtins.dict.") + attr;
        v.receiver = ReceiverKind::Literal;
        return v;
      case Value::K::Param:
      case Value::K::Tensor:
      case Value::K::Unknown:
      case Value::K::ExtFunction:
        v.k = Value::K::Path;
        v.path = "torch.Tensor." + attr;
        v.receiver = obj.k == Value::K::Param ? ReceiverKind::Param
                     : (obj.receiver == ReceiverKind::Self ? ReceiverKind::Self : ReceiverKind::Value);
        return v;
    }
    return v;
  }

  bool derives_from(int derived, int base) {
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

  bool is_autograd_function(int ci) {
    for (const auto& base : class_bases(ci))
      if (base.find("autograd.Function") != std::string::npos) return true;
    return false;
  }

  std::vector<std::string> class_bases(int ci) {
    std::vector<std::string> out;
    for (TSNode b : classes_[ci].base_nodes) {
      Value v = eval(b, classes_[ci].scope, 1);
      out.push_back(value_path(v, b));
    }
    return out;
  }

  // A method or attribute of a local class, following local base classes.
  Value class_member(int ci, const std::string& attr, int depth, ReceiverKind receiver) {
    std::unordered_set<int> seen;
    int c = ci;
    while (c >= 0 && !seen.count(c) && depth < kMaxEvalDepth) {
      seen.insert(c);
      auto it = classes_[c].methods.find(attr);
      if (it != classes_[c].methods.end()) {
        Value v;
        v.k = Value::K::Function;
        v.index = it->second;
        v.receiver = receiver;
        return v;
      }
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

  std::string value_path(const Value& v, TSNode node) const {
    switch (v.k) {
      case Value::K::Path:
      case Value::K::Instance:
        return v.index >= 0 && v.k == Value::K::Instance ? classes_[v.index].name : v.path;
      case Value::K::Function: return facts_.functions[v.index].qualname;
      case Value::K::Class: return classes_[v.index].name;
      case Value::K::Extension: return "extension." + facts_.extensions[v.index].name;
      case Value::K::Kernel: return v.path;
      case Value::K::ExtFunction: return "extension." + facts_.extensions[v.index].name + "." + v.path;
      case Value::K::Self: return "self";
      case Value::K::Param: return v.path;
      case Value::K::Tensor:
        if (!v.path.empty()) return v.path;
        [[fallthrough]];
      default: return std::string(ts::text(node, src_));
    }
  }

  std::optional<FoldedString> fold_in(TSNode expr, int scope) {
    int saved = current_scope_;
    current_scope_ = scope;
    auto r = folder_.fold_string(expr);
    current_scope_ = saved;
    return r;
  }

  TSNode positional_arg(TSNode args, uint32_t index) const {
    uint32_t n = ts::named_count(args), seen = 0;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode a = ts::named_child(args, i);
      if (ts::is(a, "keyword_argument") || ts::is(a, "comment")) continue;
      if (seen++ == index) return a;
    }
    return TSNode{};
  }

  TSNode keyword_arg(TSNode args, std::string_view name) const {
    uint32_t n = ts::named_count(args);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode a = ts::named_child(args, i);
      if (ts::is(a, "keyword_argument") && ts::text(ts::field(a, "name"), src_) == name) return ts::field(a, "value");
    }
    return TSNode{};
  }

  Value eval(TSNode node, int scope, int depth = 0) {
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
        case Found::K::Builtin:
          v.k = Value::K::Path;
          v.path = f.path;
          v.receiver = ReceiverKind::Module;
          return v;
        case Found::K::Binding: {
          Value b = eval_binding(*f.bindings, depth);
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
      Value obj = eval(ts::field(node, "object"), scope, depth + 1);
      return attribute_of(obj, std::string(ts::text(ts::field(node, "attribute"), src_)), depth + 1);
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
        constexpr std::string_view kDict = ".__dict__";
        if (base.path.size() > kDict.size() && base.path.compare(base.path.size() - kDict.size(), kDict.size(), kDict) == 0) {
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

  Value eval_call(TSNode node, int scope, int depth) {
    Value v;
    TSNode fn = ts::field(node, "function");
    TSNode args = ts::field(node, "arguments");
    Value callee = eval(fn, scope, depth + 1);
    if (callee.k == Value::K::Path) {
      const std::string& p = callee.path;
      if (p == "builtins.getattr") {
        Value obj = eval(positional_arg(args, 0), scope, depth + 1);
        auto name = fold_in(positional_arg(args, 1), scope);
        if (name) {
          Value r = attribute_of(obj, name->text, depth + 1);
          r.dynamic = r.dynamic || !name->plain;
          return r;
        }
        v.k = Value::K::Unknown;
        v.unresolved = true;
        v.path = value_path(obj, positional_arg(args, 0)) + ".?";
        return v;
      }
      if (p == "importlib.import_module" || p == "builtins.__import__") {
        auto name = fold_in(positional_arg(args, 0), scope);
        if (name) {
          v.k = Value::K::Path;
          v.path = name->text;
          v.dynamic = !name->plain;
          v.receiver = ReceiverKind::Module;
          return v;
        }
        v.k = Value::K::Unknown;
        v.unresolved = true;
        v.path = "?";
        return v;
      }
      if (p == "builtins.vars") {
        Value obj = eval(positional_arg(args, 0), scope, depth + 1);
        if (obj.k == Value::K::Path) {
          v.k = Value::K::Path;
          v.path = obj.path + ".__dict__";
          return v;
        }
        return v;
      }
      if (p == "functools.partial" || p == "triton.jit" || p == "torch.jit.ignore" || p == "functools.wraps") {
        TSNode target = positional_arg(args, 0);
        if (!ts_node_is_null(target)) return eval(target, scope, depth + 1);
      }
      if (p == "torch.utils.cpp_extension.load_inline" || p == "torch.utils.cpp_extension.load") {
        v.k = Value::K::Extension;
        v.index = extension_for(node, scope);
        return v;
      }
      if (kernel_compiler(p)) {  // cute.compile(fn, ...), cupy.RawKernel(src, name), numba.cuda.jit(fn)
        Value target = eval(positional_arg(args, 0), scope, depth + 1);
        v.k = Value::K::Kernel;
        v.index = target.k == Value::K::Function ? target.index : -1;
        v.path = p;
        return v;
      }
      if (p == "builtins.type" && ts::named_count(args) == 1) {
        Value obj = eval(positional_arg(args, 0), scope, depth + 1);
        if (obj.k == Value::K::Self) return attribute_of(obj, "__class__", depth + 1);
      }
      constexpr std::string_view kDictGet = ".__dict__.get";
      if (p.size() > kDictGet.size() && p.compare(p.size() - kDictGet.size(), kDictGet.size(), kDictGet) == 0) {
        if (auto k = fold_in(positional_arg(args, 0), scope)) {
          v.k = Value::K::Path;
          v.path = p.substr(0, p.size() - kDictGet.size()) + "." + k->text;
          v.dynamic = true;
          v.receiver = ReceiverKind::Module;
          return v;
        }
      }
      if (p == "builtins.super") {
        v.k = Value::K::Path;
        v.path = "super";
        return v;
      }
      v.k = Value::K::Instance;
      v.path = p;
      return v;
    }
    if (callee.k == Value::K::Class) {
      v.k = Value::K::Instance;
      v.index = callee.index;
      v.path = classes_[callee.index].name;
      return v;
    }
    if (callee.k == Value::K::Function && facts_.functions[callee.index].name == "__getitem__") return v;
    // A kernel factory (tilelang.jit) returns a compiled kernel; calling a CuTe kernel returns its
    // launchable (kernel(...).launch(...)); RawModule.get_function returns one of its kernels.
    if (callee.k == Value::K::Function && (facts_.functions[callee.index].kind == FunctionKind::DslKernel ||
                                           is_kernel_factory(callee.index))) {
      v.k = Value::K::Kernel;
      v.index = callee.index;
      v.path = facts_.functions[callee.index].qualname;
      return v;
    }
    if (callee.k == Value::K::Kernel && kernel_getter_method(last_component(callee.path))) return callee;
    if (callee.k == Value::K::Function)
      if (Value k = returned_kernel(callee.index, depth + 1); k.k == Value::K::Kernel) return k;
    v.k = Value::K::Tensor;
    return v;
  }

  // A kernel-valued element of `container`: from `container[k] = v` stores (by the container's text),
  // or from the literal or comprehension the name is bound to. Unknown when no element is a kernel.
  Value kernel_element(TSNode container, int scope, int depth) {
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

  Value find_kernel_element(TSNode container, int scope, int depth) {
    Value none;
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
    for (const Binding& c : candidates) {
      Value e = eval(c.expr, c.scope, depth + 1);
      if (e.k == Value::K::Kernel) return e;
      if (e.k == Value::K::Function && (facts_.functions[e.index].kind == FunctionKind::TritonJit ||
                                        facts_.functions[e.index].kind == FunctionKind::DslKernel))
        return e;
    }
    return none;
  }

  // What a local function returns, when it is a kernel: a builder that returns tilelang.compile(...),
  // a factory that returns its nested helion or CuTe kernel, a getter of a kernel cache.
  Value returned_kernel(int fi, int depth) {
    Value none;
    auto it = return_exprs_.find(fi);
    if (it == return_exprs_.end() || depth > kMaxEvalDepth) return none;
    if (auto memo = returned_kernels_.find(fi); memo != returned_kernels_.end()) return memo->second;
    returned_kernels_.emplace(fi, none);  // a function that returns its own call ends here
    Value found = find_returned_kernel(it->second, depth);
    returned_kernels_[fi] = found;
    return found;
  }

  Value find_returned_kernel(const std::vector<Binding>& returns, int depth) {
    Value none;
    for (const Binding& r : returns) {
      Value e = eval(r.expr, r.scope, depth + 1);
      if (e.k == Value::K::Kernel) return e;
      if (e.k == Value::K::Function && (facts_.functions[e.index].kind == FunctionKind::DslKernel ||
                                        facts_.functions[e.index].kind == FunctionKind::TritonJit)) {
        Value k;
        k.k = Value::K::Kernel;
        k.index = e.index;
        k.path = facts_.functions[e.index].qualname;
        return k;
      }
    }
    return none;
  }

  bool is_kernel_factory(int fi) const {
    const auto& decorators = facts_.functions[fi].decorators;
    return std::any_of(decorators.begin(), decorators.end(), [](const std::string& d) { return kernel_factory_decorator(d); });
  }

  // ===== Extensions (load_inline / load) =====

  int extension_for(TSNode call, int scope) {
    uint64_t k = ts::key(call);
    if (auto it = extension_by_call_.find(k); it != extension_by_call_.end()) return it->second;
    int index = static_cast<int>(facts_.extensions.size());
    extension_by_call_[k] = index;
    Extension ext;
    TSNode fn = ts::field(call, "function");
    Value callee = eval(ts::field(call, "function"), scope, 1);
    ext.loader = callee.path;
    (void)fn;
    bool inline_loader = callee.path.size() >= 11 && callee.path.compare(callee.path.size() - 11, 11, "load_inline") == 0;
    TSNode args = ts::field(call, "arguments");
    TSNode name = keyword_arg(args, "name");
    if (ts_node_is_null(name)) name = positional_arg(args, 0);
    if (auto n = fold_in(name, scope)) ext.name = n->text;
    else ext.name = "<unnamed>";
    TSNode parent = ts::parent(call);
    if (ts::is(parent, "assignment")) ext.binding = std::string(ts::text(ts::field(parent, "left"), src_));
    ext.span = ts::span(call);
    TSNode functions = keyword_arg(args, "functions");
    if (ts_node_is_null(functions) && inline_loader) functions = positional_arg(args, 3);
    if (!ts_node_is_null(functions)) {
      int saved = current_scope_;
      current_scope_ = scope;
      auto list = folder_.fold_string_list(functions);
      current_scope_ = saved;
      if (list)
        for (const auto& f : *list) ext.functions.push_back(f.text);
    }
    facts_.extensions.push_back(ext);

    auto add_sources = [&](TSNode expr, Language lang, const char* role) {
      if (ts_node_is_null(expr) || ts::is(expr, "none")) return;
      int saved = current_scope_;
      current_scope_ = scope;
      auto list = folder_.fold_string_list(expr);
      current_scope_ = saved;
      // Sources in sibling files: load(sources=[Path(__file__).parent / "k.cu"]), or
      // load_inline(cuda_sources=Path(__file__).with_name("k.cu").read_text()). The pipeline reads
      // them next to the submission (extension-sources-unresolved when one is missing).
      if (!list) {
        std::vector<TSNode> items;
        if (ts::is(expr, "list") || ts::is(expr, "tuple")) items = ts::named_children(expr);
        else items.push_back(expr);
        std::vector<std::string> files;
        for (TSNode item : items) {
          auto file = std::string_view(role) == "load-file" ? fold_source_path(item, scope, 0) : file_source(item, scope, 0);
          if (!file) {
            facts_.extensions[index].sources_unresolved = true;
            return;
          }
          files.push_back(std::move(*file));
        }
        for (auto& f : files) facts_.extensions[index].source_files.push_back(std::move(f));
        return;
      }
      for (auto& s : *list) {
        if (std::string_view(role) == "load-file") {
          facts_.extensions[index].source_files.push_back(s.text);
          continue;
        }
        if (embedded_count_ >= limits_.max_embedded_sources) {
          if (!too_many_reported_) {
            too_many_reported_ = true;
            diags_.push_back(input_diag("input-too-many-sources",
                                        "more than " + std::to_string(limits_.max_embedded_sources) +
                                            " embedded C++/CUDA sources; the rest are not analysed",
                                        ts::span(expr)));
          }
          return;
        }
        ++embedded_count_;
        Module m;
        m.language = lang;
        m.role = role;
        m.text = std::move(s.text);
        m.map = std::move(s.map);
        m.span = ts::span(expr);
        m.extension = index;
        facts_.modules.push_back(std::move(m));
      }
    };
    if (inline_loader) {
      TSNode cpp = keyword_arg(args, "cpp_sources");
      if (ts_node_is_null(cpp)) cpp = positional_arg(args, 1);
      TSNode cuda = keyword_arg(args, "cuda_sources");
      if (ts_node_is_null(cuda)) cuda = positional_arg(args, 2);
      add_sources(cpp, Language::Cpp, "cpp_sources");
      add_sources(cuda, Language::Cuda, "cuda_sources");
    } else {
      TSNode sources = keyword_arg(args, "sources");
      if (ts_node_is_null(sources)) sources = positional_arg(args, 1);
      add_sources(sources, Language::Cuda, "load-file");
    }
    return index;
  }

  // A path the submission builds to one of its own files, folded: literals, `__file__`,
  // os.path.dirname/join/abspath, pathlib.Path, `.parent`, `/`, `.with_name`, `.joinpath`, str().
  // kSubmissionDir stands for the directory of the submission, which the pipeline substitutes.
  std::optional<std::string> fold_source_path(TSNode expr, int scope, int depth) {
    if (ts_node_is_null(expr) || depth > 12) return std::nullopt;
    auto dirname = [](const std::string& p) -> std::string {
      const size_t slash = p.rfind('/');
      return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
    };
    auto join = [](const std::string& a, const std::string& b) { return !b.empty() && b[0] == '/' ? b : a + "/" + b; };
    std::string_view t = ts::type(expr);
    if (t == "string" || t == "concatenated_string") {
      auto folded = folder_.fold_string(expr);
      if (folded) return folded->text;
      return std::nullopt;
    }
    if (t == "parenthesized_expression") return fold_source_path(ts::named_child(expr, 0), scope, depth + 1);
    if (t == "identifier") {
      const std::string name(ts::text(expr, src_));
      if (name == "__file__") return std::string(kSubmissionDir) + "/__file__";
      Found f = find_name(name, scope);
      if (f.k != Found::K::Binding || f.bindings->empty() || ts_node_is_null(f.bindings->back().expr)) return std::nullopt;
      return fold_source_path(f.bindings->back().expr, f.bindings->back().scope, depth + 1);
    }
    if (t == "attribute" && ts::text(ts::field(expr, "attribute"), src_) == "parent") {
      auto base = fold_source_path(ts::field(expr, "object"), scope, depth + 1);
      if (base) return dirname(*base);
      return std::nullopt;
    }
    if (t == "binary_operator" && ts::text(ts::field(expr, "operator"), src_) == "/") {
      auto left = fold_source_path(ts::field(expr, "left"), scope, depth + 1);
      auto right = fold_source_path(ts::field(expr, "right"), scope, depth + 1);
      if (left && right) return join(*left, *right);
      return std::nullopt;
    }
    if (t != "call") return std::nullopt;
    TSNode fn = ts::field(expr, "function");
    TSNode args = ts::field(expr, "arguments");
    std::vector<std::optional<std::string>> folded;
    for (TSNode a : ts::named_children(args)) folded.push_back(fold_source_path(a, scope, depth + 1));
    auto all = [&]() { return std::all_of(folded.begin(), folded.end(), [](const auto& f) { return f.has_value(); }); };
    if (ts::is(fn, "attribute")) {  // methods of a path value
      const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
      if (method == "resolve" || method == "absolute" || method == "expanduser") return fold_source_path(ts::field(fn, "object"), scope, depth + 1);
      if (method == "with_name" && folded.size() == 1 && folded[0]) {
        auto base = fold_source_path(ts::field(fn, "object"), scope, depth + 1);
        if (base) return join(dirname(*base), *folded[0]);
        return std::nullopt;
      }
      if (method == "joinpath" && all()) {
        auto base = fold_source_path(ts::field(fn, "object"), scope, depth + 1);
        if (!base) return std::nullopt;
        for (const auto& part : folded) *base = join(*base, *part);
        return base;
      }
    }
    const Value callee = eval(fn, scope, 1);
    if (callee.k != Value::K::Path) return std::nullopt;
    const std::string& p = callee.path;
    if ((p == "os.path.dirname") && folded.size() == 1 && folded[0]) return dirname(*folded[0]);
    if ((p == "os.path.join" || p == "posixpath.join") && !folded.empty() && all()) {
      std::string out = *folded[0];
      for (size_t i = 1; i < folded.size(); ++i) out = join(out, *folded[i]);
      return out;
    }
    if ((p == "os.path.abspath" || p == "os.path.realpath" || p == "os.path.normpath" || p == "os.fspath" ||
         p == "builtins.str" || p == "pathlib.Path" || p == "pathlib.PurePath" || p == "pathlib.PosixPath") &&
        folded.size() == 1 && folded[0])
      return folded[0];
    return std::nullopt;
  }

  // A source string read from one of the submission's own files: open(path).read(),
  // Path(...).read_text(), or a name bound to one. Returns the folded path.
  std::optional<std::string> file_source(TSNode expr, int scope, int depth) {
    if (ts_node_is_null(expr) || depth > 8) return std::nullopt;
    if (ts::is(expr, "identifier")) {
      Found f = find_name(std::string(ts::text(expr, src_)), scope);
      if (f.k != Found::K::Binding || f.bindings->empty() || ts_node_is_null(f.bindings->back().expr)) return std::nullopt;
      return file_source(f.bindings->back().expr, f.bindings->back().scope, depth + 1);
    }
    if (!ts::is(expr, "call")) return std::nullopt;
    TSNode fn = ts::field(expr, "function");
    if (!ts::is(fn, "attribute")) return std::nullopt;
    const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
    TSNode object = ts::field(fn, "object");
    if (method == "read_text") return fold_source_path(object, scope, depth + 1);
    if (method == "read" && ts::is(object, "call")) {
      const Value opener = eval(ts::field(object, "function"), scope, 1);
      if (opener.k == Value::K::Path && (opener.path == "builtins.open" || opener.path == "io.open" || opener.path == "codecs.open"))
        return fold_source_path(positional_arg(ts::field(object, "arguments"), 0), scope, depth + 1);
    }
    return std::nullopt;
  }

  // ===== After pass 1 =====

  void classify_functions() {
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
  bool is_nn_module(int ci, int depth = 0) {
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
  int module_class_named(const std::string& name) {
    if (auto it = scopes_[0].local_classes.find(name); it != scopes_[0].local_classes.end()) return it->second;
    if (auto b = scopes_[0].bindings.find(name); b != scopes_[0].bindings.end() && !b->second.empty()) {
      TSNode expr = b->second.back().expr;
      if (ts_node_is_null(expr) || !(ts::is(expr, "identifier") || ts::is(expr, "attribute"))) return -1;
      Value v = eval(expr, 0, 1);
      if (v.k == Value::K::Class) return v.index;
    }
    return -1;
  }

  // The function a module-level name calls: `def name`, `name = other_function`, or a wrapper of a
  // local function (`custom_kernel = torch.compile(_custom_kernel)`, functools.partial(f, ...)).
  int module_function_named(const std::string& name) {
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
  bool defines_own_kernels() {
    for (const Function& f : facts_.functions)
      if (f.kind == FunctionKind::TritonJit || f.kind == FunctionKind::DslKernel || is_kernel_factory(&f - facts_.functions.data()))
        return true;
    for (const auto& [name, bindings] : scopes_[0].bindings)
      for (const Binding& b : bindings) {
        if (ts_node_is_null(b.expr) || !ts::is(b.expr, "call")) continue;
        const Value callee = eval(ts::field(b.expr, "function"), 0, 1);
        if (callee.k == Value::K::Path && (callee.path == "torch.utils.cpp_extension.load_inline" ||
                                           callee.path == "torch.utils.cpp_extension.load" || kernel_compiler(callee.path)))
          return true;
      }
    return src_.find("load_inline(") != std::string_view::npos;
  }

  // The harness profile (rules/harnesses), from what the module offers at its top level.
  void choose_harness() {
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
      if (!scopes_[0].local_functions.count(name) && !scopes_[0].local_classes.count(name) && module_function_named(name) >= 0)
        outline.functions.push_back(name);
    std::sort(outline.classes.begin(), outline.classes.end());
    std::sort(outline.functions.begin(), outline.functions.end());
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

  // The entry points the profile names: methods of its model class, and its entry functions (plus
  // any a task or .kgate.yaml adds). Reachability starts from these.
  void find_entries() {
    if (!profile_) return;
    for (const auto& name : profile_->entry_classes) {
      model_class_ = module_class_named(name);
      if (model_class_ >= 0) break;
    }
    if (model_class_ >= 0) {
      for (const auto& name : profile_->entry_methods) {
        Value m = class_member(model_class_, name, 0, ReceiverKind::Self);
        if (m.k != Value::K::Function) continue;
        if (facts_.entry < 0 && name == "forward") facts_.entry = m.index;
        facts_.entries.push_back(m.index);
      }
    }
    std::vector<std::string> functions = profile_->entry_functions;
    functions.insert(functions.end(), harness_.extra_entry_functions.begin(), harness_.extra_entry_functions.end());
    for (const auto& name : functions) {
      const int fi = module_function_named(name);
      if (fi < 0) continue;
      if (std::find(facts_.entries.begin(), facts_.entries.end(), fi) == facts_.entries.end()) facts_.entries.push_back(fi);
    }
    if (facts_.entry < 0 && !facts_.entries.empty()) facts_.entry = facts_.entries.front();
    // Output parameters of the entry functions: outputs, not inputs (receiver kind Output).
    if (!profile_->outputs.empty())
      for (const auto& name : functions) {
        const int fi = module_function_named(name);
        if (fi < 0) continue;
        for (const auto& param : facts_.functions[fi].params)
          if (profile_->output_parameter(param)) output_params_.emplace_back(fi, param);
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
  bool is_output_param(const std::string& name, int scope) const {
    const int fn = scopes_[scope].function;
    return std::any_of(output_params_.begin(), output_params_.end(),
                       [&](const auto& o) { return o.first == fn && o.second == name && scopes_[scope].params.count(name); });
  }

  // One output fact per output parameter: whether the entry writes it (see OutputParam).
  void finish_launch_arguments() {
    for (size_t i = 0; i < facts_.calls.size(); ++i)
      for (const auto& [begin, end] : launch_arg_ranges_)
        if (call_start_[i] > begin && call_start_[i] < end) facts_.calls[i].launch_argument = true;
  }

  void finish_outputs() {
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
  void mark_harness_imports() {
    if (!profile_) return;
    for (Import& im : facts_.imports) {
      std::string_view root = im.module;
      root = root.substr(0, root.find('.'));
      im.harness_allowed = profile_->allows_import(im.module) || profile_->allows_import(root);
      im.harness_forbidden = !im.harness_allowed && (profile_->forbids_import(im.module) || profile_->forbids_import(root));
    }
  }

  // ===== Pass 2: facts, with guards =====

  Diagnostic input_diag(const std::string& rule, const std::string& message, Span span) {
    Diagnostic d;
    d.rule = rule;
    d.severity = Severity::Error;
    d.message = message;
    d.path = file_.path;
    d.span = span;
    d.engine = "tree-sitter-python";
    return d;
  }

  bool mentions(TSNode node, std::initializer_list<std::string_view> words) const {
    std::string_view t = ts::text(node, src_);
    for (auto w : words)
      if (t.find(w) != std::string_view::npos) return true;
    return false;
  }

  bool shape_test(TSNode cond) const {
    return mentions(cond, {".shape", ".size(", ".numel(", ".dim(", ".ndim", ".is_cuda", ".device", ".dtype",
                           ".is_contiguous(", "len("});
  }

  bool impossible_shape(TSNode cond) {
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
  Guard branch_guard(const Guard& outer, TSNode cond, bool when_true, int scope) {
    Guard g = outer;
    int saved = current_scope_;
    current_scope_ = scope;
    Truth t = folder_.fold_truth(cond);
    current_scope_ = saved;
    if ((t == Truth::False && when_true) || (t == Truth::True && !when_true)) g.constant_false = true;
    if (mentions(cond, {".training"})) g.training = true;
    if (shape_test(cond)) g.shape_test = true;
    if (when_true && impossible_shape(cond)) g.impossible_shape = true;
    return g;
  }

  void walk_block(TSNode block, int scope, const Guard& guard) {
    Guard g = guard;
    for (TSNode stmt : ts::named_children(block)) {
      walk(stmt, scope, g);
      std::string_view t = ts::type(stmt);
      if (t == "return_statement" || t == "raise_statement" || t == "continue_statement" || t == "break_statement")
        g.after_return = true;
    }
  }


  int function_index_of(TSNode def) const {
    for (size_t i = 0; i < function_nodes_.size(); ++i)
      if (ts_node_eq(function_nodes_[i], def)) return static_cast<int>(i);
    return -1;
  }

  void enter_function(TSNode def, int outer_scope, const Guard& outer) {
    int fi = function_index_of(def);
    if (fi < 0) return;
    // A nested def or lambda is reached when its parent is (it is defined there).
    edges_.push_back(Edge{scopes_[outer_scope].function, fi, outer.dead(), true});
    int saved = current_scope_;
    int scope = function_scope_[fi];
    current_scope_ = scope;
    Guard fresh;
    TSNode body = ts::field(def, "body");
    if (ts::is(body, "block")) walk_block(body, scope, fresh);
    else walk(body, scope, fresh);
    current_scope_ = saved;
  }

  void add_edge(int from, int to, bool dead) { edges_.push_back(Edge{from, to, dead}); }

  void walk(TSNode node, int scope, const Guard& guard) {
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
      if (ts::is(fn, "attribute")) walk_chain_inside(ts::field(fn, "object"), scope, guard);
      else if (!ts::is(fn, "identifier")) walk(fn, scope, guard);  // a callee that is itself a call or subscript
      walk(ts::field(node, "arguments"), scope, guard);
      return;
    }
    if (t == "binary_operator") {
      if (ts::text(ts::field(node, "operator"), src_) == "@") record_operator_matmul(node, scope, guard);
      walk_children(node, scope, guard);
      return;
    }
    if (t == "assignment" || t == "augmented_assignment") {
      record_assignment(node, scope, guard, t == "augmented_assignment");
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
  void walk_chain_inside(TSNode node, int scope, const Guard& guard) {
    if (ts::is(node, "attribute")) {
      walk_chain_inside(ts::field(node, "object"), scope, guard);
    } else if (ts::is(node, "identifier")) {
      record_identifier_ref(node, scope, guard);
    } else {
      walk(node, scope, guard);
    }
  }

  void walk_children(TSNode node, int scope, const Guard& guard) {
    if (ts_node_is_null(node)) return;
    for (TSNode child : ts::named_children(node)) walk(child, scope, guard);
  }

  void walk_target_parts(TSNode target, int scope, const Guard& guard) {
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

  int fn_of(int scope) const { return scopes_[scope].function; }

  // Which kind of thing the leftmost name of an expression chain is.
  ReceiverKind root_kind(TSNode expr, int scope) {
    TSNode n = expr;
    for (int guard = 0; guard < 64; ++guard) {
      if (ts::is(n, "attribute")) n = ts::field(n, "object");
      else if (ts::is(n, "subscript")) n = ts::field(n, "value");
      else if (ts::is(n, "call")) n = ts::field(n, "function");
      else if (ts::is(n, "parenthesized_expression")) n = ts::named_child(n, 0);
      else break;
    }
    if (!ts::is(n, "identifier")) return ts::is(n, "string") ? ReceiverKind::Literal : ReceiverKind::Value;
    Value v = eval(n, scope);
    switch (v.k) {
      case Value::K::Self: return ReceiverKind::Self;
      case Value::K::Param: return is_output_param(v.path, scope) ? ReceiverKind::Output : ReceiverKind::Param;
      case Value::K::Path: return ReceiverKind::Module;
      default: return v.receiver == ReceiverKind::Self ? ReceiverKind::Self : ReceiverKind::Value;
    }
  }

  std::string root_name(TSNode expr) const {
    TSNode n = expr;
    for (int guard = 0; guard < 64; ++guard) {
      if (ts::is(n, "attribute")) n = ts::field(n, "object");
      else if (ts::is(n, "subscript")) n = ts::field(n, "value");
      else if (ts::is(n, "call")) {
        TSNode f = ts::field(n, "function");
        if (!ts::is(f, "attribute")) return {};
        n = ts::field(f, "object");
      } else if (ts::is(n, "parenthesized_expression")) n = ts::named_child(n, 0);
      else break;
    }
    return ts::is(n, "identifier") ? std::string(ts::text(n, src_)) : std::string{};
  }

  // Remembers that a buffer was handed to a kernel or written in place, by its root name and, for
  // attribute chains (self.buf), by its dotted text. Containers filled with .append() are not "written":
  // that is how a result bank is stocked.
  void note_written(int scope, TSNode expr) {
    if (ts::is(expr, "attribute")) scopes_[scope].written_names.insert(std::string(ts::text(expr, src_)));
    std::string r = root_name(expr);
    if (r.empty()) return;
    Found f = find_name(r, scope);
    if (f.k == Found::K::Self) return;  // only the exact self.<attr> text counts
    if (f.k == Found::K::Binding && f.scope == 0 && scope != 0 && is_module_container(r)) return;
    scopes_[scope].written_names.insert(r);
  }

  void record_call(TSNode node, int scope, const Guard& guard) {
    TSNode fn = ts::field(node, "function");
    TSNode args = ts::field(node, "arguments");
    uint32_t start = ts_node_start_byte(node);

    // Triton launch: kernel[grid](...); the same shape launches a Numba CUDA kernel.
    if (ts::is(fn, "subscript")) {
      Value k = eval(ts::field(fn, "value"), scope);
      const bool triton = k.k == Value::K::Function && facts_.functions[k.index].kind == FunctionKind::TritonJit;
      const bool dsl = (k.k == Value::K::Function && facts_.functions[k.index].kind == FunctionKind::DslKernel) ||
                       k.k == Value::K::Kernel;
      if (triton || dsl) {
        Launch l;
        l.kind = triton ? LaunchKind::Triton : LaunchKind::Dsl;
        l.kernel = k.k == Value::K::Kernel ? value_path(k, ts::field(fn, "value")) : facts_.functions[k.index].qualname;
        l.kernel_function = k.index;
        l.grid = std::string(ts::text(ts::field(fn, "subscript"), src_));
        l.grid_empty = grid_is_empty(ts::field(fn, "subscript"), scope);
        l.function = fn_of(scope);
        l.guard = guard;
        l.span = ts::span(node);
        launch_start_.push_back(start);
        facts_.launches.push_back(l);
        if (k.index >= 0) add_edge(fn_of(scope), k.index, guard.dead());
        mark_args_written(args, scope, /*launch=*/true);
        note_launch_arguments(args);
        return;
      }
    }

    Value callee = eval(fn, scope);
    Call c;
    c.callee = std::string(ts::text(fn, src_));
    if (c.callee.size() > 200) c.callee = c.callee.substr(0, 200) + "...";
    c.function = fn_of(scope);
    c.guard = guard;
    c.span = ts::span(node);
    c.dynamic_name = callee.dynamic;
    c.unresolved_dynamic = callee.unresolved;
    if (ts::is(fn, "attribute")) {
      c.receiver = callee.receiver == ReceiverKind::None ? ReceiverKind::Value : callee.receiver;
      if (callee.k == Value::K::Path || callee.k == Value::K::Function || callee.k == Value::K::ExtFunction) {
        ReceiverKind rk = root_kind(ts::field(fn, "object"), scope);
        if (rk == ReceiverKind::Param && c.receiver != ReceiverKind::Module) c.receiver = ReceiverKind::Param;
      }
      // output.zero_(): the output argument the harness hands in is the entry's to write.
      if (c.receiver == ReceiverKind::Param && !output_params_.empty() &&
          root_kind(ts::field(fn, "object"), scope) == ReceiverKind::Output)
        c.receiver = ReceiverKind::Output;
    }

    switch (callee.k) {
      case Value::K::Function: {
        c.resolved = facts_.functions[callee.index].qualname;
        c.local_target = true;
        add_edge(fn_of(scope), callee.index, guard.dead());
        mark_args_written(args, scope);
        // Calling a CuTe DSL kernel inside its @cute.jit launcher: kernel(...).launch(grid, block).
        if (facts_.functions[callee.index].kind == FunctionKind::DslKernel)
          record_dsl_launch(node, c.resolved, callee.index, scope, guard);
        break;
      }
      case Value::K::Kernel: {
        // A compiled kernel handle: calling it launches (cupy kernels, cute.compile results, TileLang
        // kernels, jiterator functions); get_function only hands out another handle.
        c.resolved = callee.path;
        if (!kernel_getter_method(last_component(callee.path))) {
          record_dsl_launch(node, callee.path, callee.index, scope, guard);
          if (callee.index >= 0) add_edge(fn_of(scope), callee.index, guard.dead());
          mark_args_written(args, scope, /*launch=*/true);
          note_launch_arguments(args);
        }
        break;
      }
      case Value::K::Class: {
        c.resolved = classes_[callee.index].name;
        c.local_target = true;
        auto it = classes_[callee.index].methods.find("__init__");
        if (it != classes_[callee.index].methods.end()) add_edge(fn_of(scope), it->second, guard.dead());
        break;
      }
      case Value::K::Instance: {
        c.instance_call = true;
        if (callee.index >= 0) {
          c.resolved = classes_[callee.index].name;
          c.local_target = true;
          for (const char* m : {"forward", "__call__"}) {
            Value target = class_member(callee.index, m, 0, ReceiverKind::Value);
            if (target.k == Value::K::Function) add_edge(fn_of(scope), target.index, guard.dead());
          }
          mark_args_written(args, scope);
        } else {
          c.resolved = callee.path;
        }
        break;
      }
      case Value::K::ExtFunction: {
        const Extension& ext = facts_.extensions[callee.index];
        c.resolved = "extension." + ext.name + "." + callee.path;
        record_extension_launch(node, ext.name + "." + callee.path, scope, guard);
        mark_args_written(args, scope, /*launch=*/true);
        note_launch_arguments(args);
        break;
      }
      case Value::K::Path:
        c.resolved = callee.path;
        if (kernel_source_compiler(callee.path)) record_kernel_source(args, callee.path);
        if (kernel_launch_api(callee.path)) {  // cuLaunchKernel(kernel, grid..., block..., args)
          record_dsl_launch(node, std::string(ts::text(positional_arg(args, 0), src_)).substr(0, 120), -1, scope, guard);
          mark_args_written(args, scope, /*launch=*/true);
          note_launch_arguments(args);
        }
        break;
      case Value::K::Unknown:
        c.resolved = callee.unresolved ? callee.path : c.callee;
        break;
      default:
        c.resolved = value_path(callee, fn);
        break;
    }
    c.method = last_component(c.resolved);
    if (c.resolved.size() > 300) c.resolved = c.resolved.substr(0, 300);

    // Arguments: folded strings, keywords.
    uint32_t n = ts::named_count(args);
    for (uint32_t i = 0; i < n && ts::is(args, "argument_list"); ++i) {
      TSNode a = ts::named_child(args, i);
      if (ts::is(a, "keyword_argument")) {
        std::string key(ts::text(ts::field(a, "name"), src_));
        TSNode val = ts::field(a, "value");
        Value kv = eval(val, scope);
        c.keywords.push_back(key);
        c.keyword_values.push_back(kv.k == Value::K::Path ? kv.path : std::string(ts::text(val, src_)).substr(0, 80));
        if (key == "out") note_written(scope, val);
        if (key == "dtype" && kv.k == Value::K::Path && is_dtype_path(kv.path)) add_cast(canonical_dtype(kv.path), "keyword", node, scope, guard);
      } else if (!ts::is(a, "comment")) {
        if (auto s = fold_in(a, scope)) c.string_args.push_back(s->text.substr(0, 256));
      }
    }

    // In-place methods and container writes mark their receiver as written.
    if (ts::is(fn, "attribute")) {
      std::string m = c.method;
      if (!m.empty() && m.back() == '_' && m.front() != '_') note_written(scope, ts::field(fn, "object"));
      if (container_write_methods().count(m) || (!m.empty() && m.back() == '_'))
        record_container_mutation(ts::field(fn, "object"), scope);
    }

    // Casts.
    if (ts::is(fn, "attribute") && c.receiver != ReceiverKind::Module) {
      if (c.method == "half") add_cast("torch.float16", "method", node, scope, guard);
      else if (c.method == "bfloat16") add_cast("torch.bfloat16", "method", node, scope, guard);
      else if (c.method == "to" || c.method == "type") {
        TSNode first = positional_arg(args, 0);
        Value dv = eval(first, scope);
        if (dv.k == Value::K::Path && is_dtype_path(dv.path)) add_cast(canonical_dtype(dv.path), "method", node, scope, guard);
      }
    }
    if (c.resolved == "triton.language.cast") {
      Value dv = eval(positional_arg(args, 1), scope);
      if (dv.k == Value::K::Path) add_cast(canonical_dtype(dv.path), "function", node, scope, guard);
    }
    if (c.resolved == "torch.autocast" || c.resolved == "torch.cuda.amp.autocast" || c.resolved == "torch.amp.autocast" ||
        c.resolved == "torch.cpu.amp.autocast")
      add_cast("autocast", "function", node, scope, guard);
    if (c.resolved == "torch.set_float32_matmul_precision" && !c.string_args.empty() && c.string_args[0] != "highest")
      add_cast("tf32", "flag", node, scope, guard);

    // setattr(obj, "name", value) is a write.
    if (c.resolved == "builtins.setattr" || c.resolved == "builtins.object.__setattr__" || c.resolved == "object.__setattr__") {
      TSNode obj = positional_arg(args, 0);
      Value ov = eval(obj, scope);
      AttributeWrite w;
      w.kind = WriteKind::Setattr;
      w.target = std::string(ts::text(node, src_)).substr(0, 200);
      auto name = fold_in(positional_arg(args, 1), scope);
      w.attribute = name ? name->text : "?";
      w.dynamic_name = !name || !name->plain;
      w.resolved = value_path(ov, obj) + "." + w.attribute;
      w.root = root_kind(obj, scope);
      if (ov.k == Value::K::Path) w.root = ReceiverKind::Module;
      w.function = fn_of(scope);
      w.guard = guard;
      w.span = ts::span(node);
      facts_.writes.push_back(w);
    }

    // Dynamic imports are imports too.
    if ((c.resolved == "importlib.import_module" || c.resolved == "builtins.__import__") && !c.string_args.empty()) {
      Import im;
      im.module = c.string_args[0];
      im.dynamic = true;
      im.function = fn_of(scope);
      im.span = ts::span(node);
      facts_.imports.push_back(im);
    }
    if (c.resolved == "torch.utils.cpp_extension.load_inline" || c.resolved == "torch.utils.cpp_extension.load")
      extension_for(node, scope);

    call_start_.push_back(start);
    facts_.calls.push_back(std::move(c));
  }

  // A grid with a dimension that folds to zero launches no program at all.
  bool grid_is_empty(TSNode grid, int scope) {
    if (ts::is(grid, "lambda")) grid = ts::field(grid, "body");
    if (ts::is(grid, "identifier")) {
      Found f = find_name(std::string(ts::text(grid, src_)), scope);
      if (f.k == Found::K::Binding && f.bindings && f.bindings->size() == 1 && !ts_node_is_null(f.bindings->back().expr))
        return grid_is_empty(f.bindings->back().expr, f.bindings->back().scope);
      return false;
    }
    if (ts::is(grid, "parenthesized_expression")) return grid_is_empty(ts::named_child(grid, 0), scope);
    int saved = current_scope_;
    current_scope_ = scope;
    bool empty = false;
    if (ts::is(grid, "tuple") || ts::is(grid, "list")) {
      for (uint32_t i = 0; i < ts::named_count(grid); ++i) {
        auto v = folder_.fold_int(ts::named_child(grid, i));
        if (v && *v <= 0) empty = true;
      }
    } else if (auto v = folder_.fold_int(grid)) {
      empty = *v <= 0;
    }
    current_scope_ = saved;
    return empty;
  }

  // CUDA C++ that a kernel language compiles at run time (cupy.RawKernel(code, name), RawModule(code=),
  // torch.cuda.jiterator._create_jit_fn(code)): an embedded module of its own, so the C++ engines see
  // its kernels and what they call, as for load_inline sources.
  void record_kernel_source(TSNode args, const std::string& compiler) {
    TSNode code = keyword_arg(args, "code");
    if (ts_node_is_null(code)) code = positional_arg(args, 0);
    if (ts_node_is_null(code) || embedded_count_ >= limits_.max_embedded_sources) return;
    auto folded = folder_.fold_string(code);
    if (!folded) return;
    ++embedded_count_;
    Module m;
    m.language = Language::Cuda;
    m.role = "kernel-source:" + compiler;
    m.text = std::move(folded->text);
    m.map = std::move(folded->map);
    m.span = ts::span(code);
    facts_.modules.push_back(std::move(m));
  }

  void record_dsl_launch(TSNode node, const std::string& kernel, int kernel_function, int scope, const Guard& guard) {
    Launch l;
    l.kind = LaunchKind::Dsl;
    l.kernel = kernel;
    l.kernel_function = kernel_function;
    l.function = fn_of(scope);
    l.guard = guard;
    l.span = ts::span(node);
    launch_start_.push_back(ts_node_start_byte(node));
    facts_.launches.push_back(l);
  }

  void record_extension_launch(TSNode node, const std::string& kernel, int scope, const Guard& guard) {
    Launch l;
    l.kind = LaunchKind::Extension;
    l.kernel = kernel;
    l.function = fn_of(scope);
    l.guard = guard;
    l.span = ts::span(node);
    launch_start_.push_back(ts_node_start_byte(node));
    facts_.launches.push_back(l);
  }

  // `launch`: the arguments go to a kernel, so wrapper calls bound elsewhere (a_ptr =
  // make_ptr(dtype, a.data_ptr(), ...)) are launch arguments too.
  void mark_args_written(TSNode args, int scope, bool launch = false) {
    uint32_t n = ts::named_count(args);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode a = ts::named_child(args, i);
      if (ts::is(a, "keyword_argument")) a = ts::field(a, "value");
      mark_written_deep(scope, a, 0, launch);
    }
  }

  // A buffer handed to a kernel is often wrapped first: from_dlpack(y), cuda.as_cuda_array(y.view(-1)),
  // (x.data_ptr(), y.data_ptr()), or a name bound to such a wrapper (`c_ = from_dlpack(c)`). The
  // wrapped tensor is the one the kernel writes.
  void mark_written_deep(int scope, TSNode expr, int depth, bool launch) {
    if (ts_node_is_null(expr) || depth > 4) return;
    note_written(scope, expr);
    if (ts::is(expr, "call")) {
      TSNode args = ts::field(expr, "arguments");
      if (launch) note_launch_arguments(args);
      for (uint32_t i = 0; i < ts::named_count(args); ++i) {
        TSNode a = ts::named_child(args, i);
        mark_written_deep(scope, ts::is(a, "keyword_argument") ? ts::field(a, "value") : a, depth + 1, launch);
      }
      TSNode fn = ts::field(expr, "function");
      if (ts::is(fn, "attribute")) mark_written_deep(scope, ts::field(fn, "object"), depth + 1, launch);
    } else if (ts::is(expr, "tuple") || ts::is(expr, "list") || ts::is(expr, "parenthesized_expression") ||
               ts::is(expr, "expression_list")) {
      for (uint32_t i = 0; i < ts::named_count(expr); ++i) mark_written_deep(scope, ts::named_child(expr, i), depth + 1, launch);
    } else if (ts::is(expr, "identifier")) {
      auto it = scopes_[scope].bindings.find(std::string(ts::text(expr, src_)));
      if (it == scopes_[scope].bindings.end()) return;
      for (const Binding& b : it->second)
        if (!ts_node_is_null(b.expr) && ts::is(b.expr, "call")) mark_written_deep(scope, b.expr, depth + 1, launch);
    }
  }

  // The arguments of a launch: a call among them (x.data_ptr() handed to a kernel) is a launch
  // argument, not a key computed for a cache.
  void note_launch_arguments(TSNode args) {
    if (!ts_node_is_null(args)) launch_arg_ranges_.emplace_back(ts_node_start_byte(args), ts_node_end_byte(args));
  }


  void add_cast(const std::string& dtype, const char* via, TSNode node, int scope, const Guard& guard) {
    Cast c;
    c.to_dtype = dtype;
    c.via = via;
    c.function = fn_of(scope);
    c.span = ts::span(node);
    cast_guards_.push_back(guard);
    facts_.casts.push_back(c);
  }

  void record_operator_matmul(TSNode node, int scope, const Guard& guard) {
    Call c;
    c.callee = "@";
    c.resolved = "operator.matmul";
    c.method = "matmul";
    c.receiver = root_kind(ts::field(node, "left"), scope) == ReceiverKind::Param ? ReceiverKind::Param : ReceiverKind::Value;
    c.function = fn_of(scope);
    c.guard = guard;
    c.span = ts::span(node);
    call_start_.push_back(ts_node_start_byte(node));
    facts_.calls.push_back(std::move(c));
  }

  void record_container_mutation(TSNode obj, int scope) {
    // A module-level container mutated from a function: remember for GlobalState.mutated_in_forward.
    std::string r = root_name(obj);
    if (r.empty()) return;
    Found f = find_name(r, scope);
    if (f.k == Found::K::Binding && f.scope == 0 && fn_of(scope) >= 0)
      global_mutations_.push_back({r, fn_of(scope)});
  }

  void record_assignment(TSNode node, int scope, const Guard& guard, bool augmented) {
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
        w.stores_kernel = stored.k == Value::K::Kernel || stored.k == Value::K::Extension || stored.k == Value::K::ExtFunction;
      }
      // Precision flags.
      if (w.resolved.find("allow_tf32") != std::string::npos || w.resolved.find("reduced_precision_reduction") != std::string::npos) {
        TSNode value = right;
        while (ts::is(value, "assignment")) value = ts::field(value, "right");
        if (folder_.fold_truth(value) != Truth::False)
          add_cast(w.resolved.find("allow_tf32") != std::string::npos ? "tf32" : "reduced-precision-reduction",
                   "flag", node, scope, guard);
      }
      facts_.writes.push_back(std::move(w));
    }
  }

  // Module-level `ModelNew = Model` and mutable containers.
  void record_module_binding(TSNode target, TSNode value) {
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
    if (vt == "list" || vt == "list_comprehension") kind = "list";
    else if (vt == "dictionary" || vt == "dictionary_comprehension") kind = "dict";
    else if (vt == "set" || vt == "set_comprehension") kind = "set";
    else if (vt == "call") {
      std::string p = value_path(eval(ts::field(value, "function"), 0), value);
      if (p == "builtins.dict" || p == "collections.OrderedDict" || p == "collections.defaultdict" || p == "weakref.WeakKeyDictionary" || p == "weakref.WeakValueDictionary") kind = "dict";
      else if (p == "builtins.list" || p == "collections.deque") kind = "list";
      else if (p == "builtins.set") kind = "set";
      else if (p.rfind("torch.", 0) == 0 && !class_like(p)) kind = "tensor";
    } else if (vt == "none") kind = "object";
    if (!kind.empty()) {
      GlobalState g;
      g.name = name;
      g.kind = kind;
      g.span = ts::span(target);
      facts_.globals.push_back(g);
    }
  }

  void record_name_ref(TSNode node, int scope, const Guard& guard) {
    // walk() calls this for the outermost attribute of a chain only; callees and write targets never
    // reach it (record_call and walk_target_parts walk around them).
    std::string attr(ts::text(ts::field(node, "attribute"), src_));
    static const std::unordered_set<std::string> special = {
        "f_back", "f_locals", "f_globals", "f_code", "__code__", "__globals__", "__closure__", "__builtins__",
        "__subclasses__", "tb_frame", "gi_frame", "cr_frame", "__self__", "_version"};
    Value v = eval(node, scope);
    bool module_rooted = v.k == Value::K::Path && v.receiver == ReceiverKind::Module;
    if (!module_rooted && !special.count(attr)) {
      // References to local functions (self.helper passed along) still reach them.
      if (v.k == Value::K::Function) add_edge(fn_of(scope), v.index, guard.dead());
      return;
    }
    if (v.k == Value::K::Path && is_dtype_path(v.path)) return;
    NameRef r;
    r.resolved = module_rooted ? v.path : (v.k == Value::K::Path ? v.path : "?." + attr);
    if (!module_rooted && v.k == Value::K::Path && v.path.rfind("torch.Tensor.", 0) == 0) r.resolved = "?." + attr;
    r.function = fn_of(scope);
    r.span = ts::span(node);
    name_guards_.push_back(guard);
    facts_.names.push_back(r);
  }

  void record_identifier_ref(TSNode node, int scope, const Guard& guard) {
    // A local function mentioned without being called (passed as a callback, stored) is reachable from
    // here. Callees and keyword names never come here (walk() steps around them).
    std::string name(ts::text(node, src_));
    Found f = find_name(name, scope);
    if (f.k == Found::K::Function) add_edge(fn_of(scope), f.index, guard.dead());
    if (f.k == Found::K::Binding && f.bindings && !f.bindings->empty() && !ts_node_is_null(f.bindings->back().expr)) {
      std::string_view bt = ts::type(f.bindings->back().expr);
      if (bt == "lambda" || bt == "call" || bt == "identifier" || bt == "attribute") {
        Value v = eval(node, scope);
        if (v.k == Value::K::Function) add_edge(fn_of(scope), v.index, guard.dead());
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

  void record_string(TSNode node, int scope) {
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

  void record_imports(TSNode node, int scope) {
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
        if (ts::is(item, "dotted_name")) add(std::string(ts::text(item, src_)), "", "");
        else if (ts::is(item, "aliased_import"))
          add(std::string(ts::text(ts::field(item, "name"), src_)), "", std::string(ts::text(ts::field(item, "alias"), src_)));
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
          add(module, std::string(ts::text(ts::field(item, "name"), src_)), std::string(ts::text(ts::field(item, "alias"), src_)));
          any = true;
        } else if (ts::is(item, "wildcard_import")) {
          add(module, "*", "");
          any = true;
        }
      }
      if (!any) add(module, "", "");
    }
  }

  void record_class(TSNode node, int scope) {
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

  void record_handler(TSNode clause, int scope, const Guard& guard, uint32_t try_begin, uint32_t try_end) {
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
        for (uint32_t i = 0; i < n; ++i) h.catches.push_back(value_path(eval(ts::named_child(value, i), scope), ts::named_child(value, i)));
      } else {
        h.catches.push_back(value_path(eval(value, scope), value));
      }
    }
    handler_ranges_.push_back({try_begin, try_end, ts_node_start_byte(clause), ts_node_end_byte(clause)});
    handler_guards_.push_back(guard);
    facts_.handlers.push_back(h);
  }

  // ===== After pass 2 =====

  // `mod.fn(x)` where mod could not be followed to a load_inline call (built by a helper, say):
  // a method whose name an extension exports is taken as a call into that extension.
  void link_extension_calls_by_name() {
    if (facts_.extensions.empty()) return;
    std::unordered_map<std::string, int> exported;
    for (size_t e = 0; e < facts_.extensions.size(); ++e)
      for (const auto& f : facts_.extensions[e].functions) exported.emplace(f, static_cast<int>(e));
    size_t n = facts_.calls.size();
    for (size_t i = 0; i < n; ++i) {
      Call& c = facts_.calls[i];
      if (c.local_target || c.resolved.rfind("extension.", 0) == 0 || c.receiver == ReceiverKind::Module) continue;
      if (c.receiver != ReceiverKind::Value && c.receiver != ReceiverKind::Self) continue;
      // Only receivers we could not follow at all (they fell back to tensor methods).
      if (c.resolved.rfind("torch.Tensor.", 0) != 0) continue;
      auto it = exported.find(c.method);
      if (it == exported.end()) continue;
      const std::string& ext = facts_.extensions[it->second].name;
      c.resolved = "extension." + ext + "." + c.method;
      Launch l;
      l.kind = LaunchKind::Extension;
      l.kernel = ext + "." + c.method;
      l.function = c.function;
      l.guard = c.guard;
      l.span = c.span;
      launch_start_.push_back(call_start_[i]);
      facts_.launches.push_back(l);
    }
  }

  void compute_reachability() {
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
    for (size_t i = 0; i < facts_.names.size(); ++i) facts_.names[i].reachable = live(facts_.names[i].function, name_guards_[i]);
    for (size_t i = 0; i < facts_.casts.size(); ++i) facts_.casts[i].reachable = live(facts_.casts[i].function, cast_guards_[i]);
    for (size_t i = 0; i < facts_.handlers.size(); ++i) facts_.handlers[i].reachable = live(facts_.handlers[i].function, handler_guards_[i]);
  }

  struct PendingReturn {
    TSNode node;
    int scope;
    Guard guard;
  };

  struct ReturnFlow {
    std::vector<std::string> origins;
    bool param = false;
    bool written = false;
    bool state = false;
  };

  void merge(ReturnFlow& into, const ReturnFlow& from) {
    for (const auto& o : from.origins)
      if (std::find(into.origins.begin(), into.origins.end(), o) == into.origins.end()) into.origins.push_back(o);
    into.param |= from.param;
    into.written |= from.written;
    into.state |= from.state;
  }

  bool is_module_container(const std::string& name) const {
    for (const auto& g : facts_.globals)
      if (g.name == name) return true;
    return false;
  }

  ReturnFlow flow(TSNode expr, int scope, int depth, std::unordered_set<std::string>& visiting) {
    ReturnFlow r;
    if (ts_node_is_null(expr) || depth > kMaxEvalDepth) return r;
    std::string_view t = ts::type(expr);
    if (t == "identifier") {
      std::string name(ts::text(expr, src_));
      Found f = find_name(name, scope);
      if (scopes_[scope].written_names.count(name)) r.written = true;
      if (f.k == Found::K::Param) r.param = true;
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
        // Stored state is reported at the helper's own return, not again at every caller.
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
  ReturnFlow function_summary(int fi, int depth) {
    if (auto it = summaries_.find(fi); it != summaries_.end()) return it->second;
    if (depth > kMaxEvalDepth) return ReturnFlow{};
    summaries_[fi] = ReturnFlow{{}, false, true, false};  // in progress: assume written, no input
    ReturnFlow merged;
    bool any = false;
    for (const PendingReturn& p : returns_) {
      if (fn_of(p.scope) != fi || p.guard.dead()) continue;
      TSNode value = ts::named_child(p.node, 0);
      if (ts_node_is_null(value)) continue;
      std::unordered_set<std::string> visiting;
      merge(merged, flow(value, p.scope, depth + 1, visiting));
      any = true;
    }
    if (!any) merged.written = true;  // returns nothing we can follow
    summaries_[fi] = merged;
    return merged;
  }

  void finish_returns() {
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
      // A kernel handle kept in a cache (the compiled kernel for this shape) is no stored output.
      const Value returned = eval(value, p.scope);
      const bool handle = returned.k == Value::K::Kernel || returned.k == Value::K::Extension || returned.k == Value::K::ExtFunction;
      r.from_state = f.state && !f.written && !handle;
      r.reachable = facts_.functions[fi].reachable && !p.guard.dead();
      r.span = ts::span(p.node);
      facts_.returns.push_back(std::move(r));
    }
  }

  void finish_handlers() {
    for (size_t i = 0; i < facts_.handlers.size(); ++i) {
      auto [tb, te, hb, he] = handler_ranges_[i];
      for (size_t l = 0; l < facts_.launches.size(); ++l)
        if (launch_start_[l] >= tb && launch_start_[l] < te) facts_.handlers[i].try_has_launch = true;
      for (size_t c = 0; c < facts_.calls.size(); ++c)
        if (call_start_[c] >= hb && call_start_[c] < he && facts_.calls[c].resolved.rfind("torch.", 0) == 0)
          facts_.handlers[i].handler_has_torch_call = true;
    }
  }

  void finish_globals() {
    for (auto& g : facts_.globals)
      for (const auto& [name, fn] : global_mutations_)
        if (name == g.name && fn >= 0 && facts_.functions[fn].reachable) g.mutated_in_forward = true;
  }

  void decide_format() {
    bool model_new = module_class_named("ModelNew") >= 0;
    for (const auto& c : facts_.classes)
      if (c.name == "ModelNew") model_new = true;
    bool triton = std::any_of(facts_.functions.begin(), facts_.functions.end(),
                              [](const Function& f) { return f.kind == FunctionKind::TritonJit; });
    bool has_model = scopes_[0].local_classes.count("Model") > 0;
    bool has_inputs = scopes_[0].local_functions.count("get_inputs") > 0;
    if (!facts_.extensions.empty()) facts_.format = SubmissionFormat::KernelBenchCuda;
    else if (triton) facts_.format = SubmissionFormat::KernelBenchTriton;
    else if (model_new) facts_.format = SubmissionFormat::KernelBenchPython;
    else if (has_model && has_inputs) facts_.format = SubmissionFormat::Task;
    else facts_.format = SubmissionFormat::PythonOther;
  }

  const SourceFile& file_;
  std::string_view src_;
  const ingest::Limits& limits_;
  FactSet& facts_;
  std::vector<Diagnostic>& diags_;
  const HarnessChoice& harness_;
  const HarnessProfile* profile_ = nullptr;
  std::vector<std::pair<int, std::string>> output_params_;
  std::vector<std::pair<uint32_t, uint32_t>> launch_arg_ranges_;
  std::unordered_map<std::string, std::vector<Binding>> element_bindings_;  // container text -> stored values
  std::unordered_map<int, std::vector<Binding>> return_exprs_;             // function -> returned expressions
  std::unordered_map<std::string, Value> kernel_elements_;                  // memo of kernel_element
  std::unordered_map<int, Value> returned_kernels_;                         // memo of returned_kernel  // byte ranges of launch argument lists  // (entry function, parameter) the profile names outputs
  ConstFolder folder_;

  std::vector<Scope> scopes_;
  std::vector<ClassInfo> classes_;
  std::vector<TSNode> function_nodes_;                 // by function index
  std::vector<int> function_scope_;                    // by function index
  std::vector<std::vector<TSNode>> decorator_nodes_;   // by function index
  std::vector<Edge> edges_;
  std::unordered_map<uint64_t, int> extension_by_call_;
  std::vector<PendingReturn> returns_;
  std::unordered_map<int, ReturnFlow> summaries_;
  std::unordered_set<std::string> mutated_names_;  // containers filled in place somewhere in the file
  std::vector<uint32_t> call_start_, launch_start_;
  std::vector<Guard> name_guards_, cast_guards_, handler_guards_;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> handler_ranges_;
  std::vector<std::pair<std::string, int>> global_mutations_;
  int current_scope_ = 0;
  int model_class_ = -1;
  uint32_t embedded_count_ = 0;
  bool too_many_reported_ = false;
};

// Depth of the syntax tree, walked iteratively so that hostile nesting cannot overflow the stack.
uint32_t tree_depth(TSNode root, uint32_t stop_at) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  uint32_t depth = 0, max_depth = 0;
  for (;;) {
    if (depth > max_depth) max_depth = depth;
    if (max_depth > stop_at) break;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
      continue;
    }
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        moved = true;
      } else if (ts_tree_cursor_goto_parent(&cursor)) {
        --depth;
      } else {
        ts_tree_cursor_delete(&cursor);
        return max_depth;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return max_depth;
}

// The first ERROR or MISSING node, found iteratively.
std::optional<TSNode> first_error(TSNode root) {
  if (!ts_node_has_error(root)) return std::nullopt;
  TSNode node = root;
  for (;;) {
    if (ts_node_is_error(node) || ts_node_is_missing(node)) return node;
    uint32_t n = ts::count(node);
    bool descended = false;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts::child(node, i);
      if (ts_node_has_error(c) || ts_node_is_missing(c)) {
        node = c;
        descended = true;
        break;
      }
    }
    if (!descended) return node;
  }
}

}  // namespace

void extract_facts(const SourceFile& file, const ingest::Limits& limits, FactSet& facts,
                   std::vector<Diagnostic>& diagnostics, const HarnessChoice& harness) {
  Module host;
  host.language = Language::Python;
  host.role = "host";
  facts.modules.push_back(std::move(host));
  facts.engine = "tree-sitter-python";

  // One parser per thread, reused: creating one allocates its stacks and lexer every time.
  thread_local ts::ParserPtr parser = [] {
    ts::ParserPtr p(ts_parser_new());
    ts_parser_set_language(p.get(), tree_sitter_python());
    return p;
  }();
  ts_parser_reset(parser.get());
  ts::TreePtr tree(ts::parse_within_budget(parser.get(), file.text));
  if (!tree && budget_exhausted()) return;  // the pipeline reports the limit that was hit
  if (!tree) {
    Diagnostic d;
    d.rule = "input-parse-error";
    d.message = "the Python parser produced no syntax tree";
    d.path = file.path;
    d.span = Span{1, 1, 1, 1};
    d.engine = "tree-sitter-python";
    diagnostics.push_back(d);
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  uint32_t depth = tree_depth(root, limits.max_nesting);
  if (depth > limits.max_nesting) {
    Diagnostic d;
    d.rule = "input-too-deep";
    d.message = "syntax nested deeper than " + std::to_string(limits.max_nesting) +
                " levels; the file is not analysed (raise --max-nesting to analyse it)";
    d.path = file.path;
    d.span = Span{1, 1, 1, 1};
    d.engine = "tree-sitter-python";
    diagnostics.push_back(d);
    return;
  }
  if (auto err = first_error(root)) {
    Diagnostic d;
    d.rule = "input-parse-error";
    d.message = ts_node_is_missing(*err) ? "Python syntax error: missing " + std::string(ts_node_type(*err))
                                         : "Python syntax error; facts come from the parts that parsed";
    d.path = file.path;
    d.span = ts::span(*err);
    d.engine = "tree-sitter-python";
    diagnostics.push_back(d);
  }
  if (budget_exhausted()) return;
  Extractor(file, limits, facts, diagnostics, harness).run(root);
  metrics::measure_python(root, file.text, facts);  // on the same tree: no second parse
}

}  // namespace kgate::python
