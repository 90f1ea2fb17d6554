// Entry inputs whose data nothing reads (InputParam): forward(self, x) that only looks at x.shape, or
// hands x to a helper of this file that only asserts its size and stride, computes something else.
#include <algorithm>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>

#include "analyzers/core/tensor_methods.h"
#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

namespace {

constexpr int kMaxReadDepth = 8;

// Functions whose argument they only inspect: its length, type, identity, or an assertion on its size
// and stride (Inductor's assert_size_stride, added by its test harness to every generated call).
bool metadata_function(std::string_view name) {
  static const std::unordered_set<std::string_view> names = {
      "len", "isinstance", "type", "id", "assert_size_stride", "assert_alignment", "hasattr", "callable"};
  return names.count(name) > 0;
}

// Builtins through which a function can read its own locals by name: every parameter is read then.
bool reads_locals_by_name(std::string_view name) {
  return name == "locals" || name == "vars" || name == "eval" || name == "exec" || name == "globals";
}

std::string_view callee_name(TSNode fn, std::string_view src) {
  if (ts::is(fn, "identifier")) return ts::text(fn, src);
  if (ts::is(fn, "attribute")) return ts::text(ts::field(fn, "attribute"), src);
  return {};
}

// Where a stored name sits: the left side of an assignment (x = ..., a, b = ...), a for target, del.
bool store_position(TSNode id) {
  for (TSNode n = id, p = ts::parent(id); !ts_node_is_null(p); n = p, p = ts::parent(p)) {
    if (ts::is(p, "pattern_list") || ts::is(p, "tuple_pattern") || ts::is(p, "list_pattern")) continue;
    if (ts::is(p, "assignment") || ts::is(p, "augmented_assignment"))
      return ts_node_eq(ts::field(p, "left"), n) && !ts::is(p, "augmented_assignment");
    if (ts::is(p, "for_statement")) return ts_node_eq(ts::field(p, "left"), n);
    return ts::is(p, "delete_statement") || (ts::is(p, "expression_list") && ts::is(ts::parent(p), "delete_statement"));
  }
  return false;
}

// An identifier that stands for a variable: not the name of an attribute (self.x) or a keyword (f(x=v)).
bool names_variable(TSNode id) {
  const TSNode parent = ts::parent(id);
  if (ts::is(parent, "attribute")) return !ts_node_eq(ts::field(parent, "attribute"), id);
  if (ts::is(parent, "keyword_argument")) return !ts_node_eq(ts::field(parent, "name"), id);
  return true;
}

// `args.clear()` on a name: the list a helper unpacked (Inductor's call(args)) drops its references only.
bool clears_list(TSNode id, std::string_view src) {
  const TSNode attr = ts::parent(id);
  return ts::is(attr, "attribute") && ts_node_eq(ts::field(attr, "object"), id) &&
         ts::text(ts::field(attr, "attribute"), src) == "clear" && ts::is(ts::parent(attr), "call");
}

// The index of a plain positional argument in its argument list, or -1 (a keyword or after a splat).
int positional_index(TSNode args, TSNode arg) {
  int i = 0;
  for (TSNode a : ts::named_children(args)) {
    if (ts::is(a, "list_splat") || ts::is(a, "dictionary_splat")) return -1;
    if (ts_node_eq(a, arg)) return i;
    if (ts::is(a, "keyword_argument")) continue;
    ++i;
  }
  return -1;
}

// Whether `node` is the test of a branch: the condition of an if, elif or while, of a conditional
// expression (`a if test else b`), or the assertion of an assert.
bool branch_test(TSNode node) {
  const TSNode parent = ts::parent(node);
  if (ts::is(parent, "if_statement") || ts::is(parent, "elif_clause") || ts::is(parent, "while_statement"))
    return ts_node_eq(ts::field(parent, "condition"), node);
  if (ts::is(parent, "assert_statement")) return ts_node_eq(ts::named_child(parent, 0), node);
  if (ts::is(parent, "conditional_expression")) return ts_node_eq(ts::named_child(parent, 1), node);
  return false;
}

}  // namespace

// Whether a mention of an input only decides a branch: it reaches the test of an if, while, assert or
// conditional expression through a pure chain (pure_chain_top), as in `if x.abs().sum() < 0: raise`,
// `assert torch.isfinite(x).all()` or `if not _finite(x):`. What the branch then computes is judged by
// the other mentions: a value that only picks a branch is not data the output is computed from.
bool Extractor::steers_branch_only(TSNode id, int scope) { return branch_test(pure_chain_top(id, scope, 0)); }

// The outermost expression that a mention computes a value from without storing or handing it anywhere:
// up through comparisons, boolean, arithmetic and unary operators, parentheses, side-effect-free tensor
// methods, top-level torch functions without `out=`, bool/int/float/abs, and calls of this file's
// functions whose result is a pure function of the parameter it lands in (pure_over_param). It stops
// at a branch test.
TSNode Extractor::pure_chain_top(TSNode id, int scope, int depth) {
  TSNode node = id;
  for (;;) {
    if (branch_test(node)) return node;
    const TSNode parent = ts::parent(node);
    if (ts::is(parent, "comparison_operator") || ts::is(parent, "boolean_operator") || ts::is(parent, "not_operator") ||
        ts::is(parent, "parenthesized_expression") || ts::is(parent, "binary_operator") ||
        ts::is(parent, "unary_operator")) {
      node = parent;
      continue;
    }
    if (ts::is(parent, "attribute") && ts_node_eq(ts::field(parent, "object"), node)) {
      const TSNode call = ts::parent(parent);
      if (!ts::is(call, "call") || !ts_node_eq(ts::field(call, "function"), parent)) return node;
      const std::string_view method = ts::text(ts::field(parent, "attribute"), src_);
      if (!pure_tensor_method(method) && !tensor_metadata_method(method)) return node;
      node = call;
    } else if (const bool keyword = ts::is(parent, "keyword_argument") && ts_node_eq(ts::field(parent, "value"), node);
               (ts::is(parent, "argument_list") || keyword) &&
               ts::is(ts::parent(keyword ? ts::parent(parent) : parent), "call")) {
      // f(x) or f(t=x): the argument is the mention, or its keyword argument.
      const TSNode arg = keyword ? parent : node;
      const TSNode args = keyword ? ts::parent(parent) : parent;
      const TSNode call = ts::parent(args);
      for (TSNode a : ts::named_children(args))
        if (ts::is(a, "keyword_argument") && ts::text(ts::field(a, "name"), src_) == "out") return node;
      const Value callee = eval(ts::field(call, "function"), scope);
      const bool torch_pure = callee.k == Value::K::Path && callee.path.starts_with("torch.") &&
                              callee.path.find('.', 6) == std::string::npos &&
                              pure_tensor_method(callee.path.substr(6));
      const bool builtin =
          callee.k == Value::K::Path && (callee.path == "builtins.bool" || callee.path == "builtins.int" ||
                                         callee.path == "builtins.float" || callee.path == "builtins.abs");
      const auto landing = torch_pure || builtin ? std::nullopt : landing_param(call, arg, scope);
      if (!torch_pure && !builtin &&
          (!landing || depth >= 3 || !pure_over_param(landing->first, landing->second, depth + 1)))
        return node;
      node = call;
    } else {
      return node;
    }
  }
}

// Whether function `fi` returns a pure function of its parameter `param` and does nothing else with
// it: every mention either reaches the value of one of fi's own returns through a pure chain, only
// decides a branch, or reads metadata (x.shape, x.dtype).
bool Extractor::pure_over_param(int fi, const std::string& param, int depth) {
  const TSNode def = function_nodes_[fi];
  const TSNode body = ts::field(def, "body");
  const int scope = function_scope_[fi];
  if (ts_node_is_null(body) || !scopes_[scope].params.count(param) || scopes_[scope].bindings.count(param))
    return false;
  bool pure = true;
  ts::preorder(body, [&](TSNode node) {
    if (!pure) return false;
    if (ts::is(node, "call") && reads_locals_by_name(ts::text(ts::field(node, "function"), src_))) pure = false;
    if (!ts::is(node, "identifier") || ts::text(node, src_) != param || !names_variable(node)) return pure;
    const TSNode attr = ts::parent(node);
    if (ts::is(attr, "attribute") && ts_node_eq(ts::field(attr, "object"), node)) {
      const std::string_view name = ts::text(ts::field(attr, "attribute"), src_);
      const bool called = ts::is(ts::parent(attr), "call") && ts_node_eq(ts::field(ts::parent(attr), "function"), attr);
      if (called ? tensor_metadata_method(name) : tensor_metadata_attribute(name)) return true;
    }
    const TSNode top = pure_chain_top(node, scope, depth);
    if (branch_test(top)) return true;
    const TSNode ret = ts::parent(top);
    if (!ts::is(ret, "return_statement")) {
      pure = false;
      return false;
    }
    TSNode owner = ts::parent(ret);
    while (!ts_node_is_null(owner) && !ts::is(owner, "function_definition")) owner = ts::parent(owner);
    pure = ts_node_eq(owner, def);  // a return of a nested function hands the value elsewhere
    return pure;
  });
  return pure;
}

// The function of this file and its parameter that argument `arg` of `call` lands in, where the call
// names a Python function of this file itself (not through an alias, Fn.apply or a wrapper).
std::optional<std::pair<int, std::string>> Extractor::landing_param(TSNode call, TSNode arg, int scope) {
  const TSNode fn = ts::field(call, "function");
  const Value callee = eval(fn, scope);
  if (callee.k != Value::K::Function) return std::nullopt;
  const Function& target = facts_.functions[callee.index];
  if (target.kind != FunctionKind::Python || target.name != callee_name(fn, src_)) return std::nullopt;
  const bool keyword = ts::is(arg, "keyword_argument");
  const int position = keyword ? 0 : positional_index(ts::field(call, "arguments"), arg);
  if (position < 0) return std::nullopt;
  const int target_scope = function_scope_[callee.index];
  // A method called through an attribute (self.helper(x)) gets its instance as the first parameter.
  const bool bound = ts::is(fn, "attribute") && !scopes_[target_scope].self_name.empty();
  const size_t index = static_cast<size_t>(position) + (bound ? 1 : 0);
  const std::string keyword_name(keyword ? ts::text(ts::field(arg, "name"), src_) : "");
  if (keyword ? !scopes_[target_scope].params.count(keyword_name) : index >= target.params.size()) return std::nullopt;
  const std::string& param = keyword ? keyword_name : target.params[index];
  const TSNode param_node = scopes_[target_scope].param_nodes.at(param);
  if (ts::is(param_node, "list_splat_pattern") || ts::is(param_node, "dictionary_splat_pattern")) return std::nullopt;
  return std::make_pair(callee.index, param);
}

// Whether function `fi` reads the data of the value that `name` holds in it. A use that is not
// understood counts as a read: the check is meant to miss an evasive cheat before it rejects honest code.
bool Extractor::name_read(int fi, const std::string& name, int depth, ReadVisits& seen) {
  if (fi < 0 || depth > kMaxReadDepth) return true;
  if (!seen.emplace(fi, name).second) return false;  // already being followed: this path adds no read
  const TSNode def = function_nodes_[fi];
  const TSNode body = ts::field(def, "body");
  if (ts_node_is_null(body)) return true;
  const int scope = function_scope_[fi];
  bool read = false;
  ts::preorder(body, [&](TSNode node) {
    if (ts::is(node, "call") && reads_locals_by_name(ts::text(ts::field(node, "function"), src_))) read = true;
    if (read) return false;
    if (!ts::is(node, "identifier") || ts::text(node, src_) != name || !names_variable(node)) return true;
    read = data_use(node, fi, scope, depth, seen);
    return !read;
  });
  return read;
}

// Whether one mention of a name (an identifier node in function `fi`) takes its data.
bool Extractor::data_use(TSNode id, int fi, int scope, int depth, ReadVisits& seen) {
  if (store_position(id) || steers_branch_only(id, scope)) return false;
  TSNode parent = ts::parent(id);
  if (ts::is(parent, "attribute") && ts_node_eq(ts::field(parent, "object"), id)) {
    const std::string_view attr = ts::text(ts::field(parent, "attribute"), src_);
    const bool called =
        ts::is(ts::parent(parent), "call") && ts_node_eq(ts::field(ts::parent(parent), "function"), parent);
    if (called ? tensor_metadata_method(attr) : tensor_metadata_attribute(attr)) return false;
    if (called && pure_tensor_method(attr)) {
      // x.contiguous().view(-1): a chain of side-effect-free methods carries x's values on.
      TSNode top = ts::parent(parent);
      for (;;) {
        const TSNode access = ts::parent(top);
        const TSNode call = ts::parent(access);
        if (!ts::is(access, "attribute") || !ts_node_eq(ts::field(access, "object"), top) || !ts::is(call, "call") ||
            !ts_node_eq(ts::field(call, "function"), access))
          break;
        const std::string_view next = ts::text(ts::field(access, "attribute"), src_);
        if (tensor_metadata_method(next) || !pure_tensor_method(next)) break;
        top = call;
      }
      const TSNode outer = ts::parent(top);
      // f(x.contiguous()): the same values reach f's parameter.
      if (ts::is(outer, "argument_list") && ts::is(ts::parent(outer), "call"))
        return argument_read(ts::parent(outer), top, -1, scope, depth, seen);
      // x.sum() thrown away reads nothing; `y = x.float()`: what reads y reads x.
      if (ts::is(outer, "expression_statement")) return false;
      if (ts::is(outer, "assignment") && ts_node_eq(ts::field(outer, "right"), top) &&
          ts::is(ts::field(outer, "left"), "identifier"))
        return name_read(fi, std::string(ts::text(ts::field(outer, "left"), src_)), depth + 1, seen);
    }
    return !clears_list(id, src_);
  }
  // `y = x`: what reads y reads x.
  if (ts::is(parent, "assignment") && ts_node_eq(ts::field(parent, "right"), id)) {
    const TSNode left = ts::field(parent, "left");
    if (ts::is(left, "identifier")) return name_read(fi, std::string(ts::text(left, src_)), depth + 1, seen);
    return true;
  }
  if (ts::is(parent, "argument_list") && ts::is(ts::parent(parent), "call"))
    return argument_read(ts::parent(parent), id, -1, scope, depth, seen);
  // helper(t=x): the parameter of that name.
  if (ts::is(parent, "keyword_argument") && ts_node_eq(ts::field(parent, "value"), id) &&
      ts::is(ts::parent(ts::parent(parent)), "call"))
    return argument_read(ts::parent(ts::parent(parent)), parent, -1, scope, depth, seen);
  // An element of a list or tuple handed to a helper of this file (call([a, b]), which unpacks it).
  if ((ts::is(parent, "list") || ts::is(parent, "tuple")) && ts::is(ts::parent(parent), "argument_list") &&
      ts::is(ts::parent(ts::parent(parent)), "call")) {
    int element = 0;
    for (TSNode e : ts::named_children(parent)) {
      if (ts_node_eq(e, id)) break;
      if (ts::is(e, "list_splat")) return true;
      ++element;
    }
    return argument_read(ts::parent(ts::parent(parent)), parent, element, scope, depth, seen);
  }
  return true;
}

// A name handed to a call as argument `arg` (a keyword argument, or element `element` of the list or tuple `arg`):
// read unless the callee only inspects it, or is a function of this file that does not read the
// parameter (or the unpacked name) it lands in.
bool Extractor::argument_read(TSNode call, TSNode arg, int element, int scope, int depth, ReadVisits& seen) {
  const TSNode fn = ts::field(call, "function");
  if (element < 0 && metadata_function(callee_name(fn, src_))) return false;
  const bool keyword = ts::is(arg, "keyword_argument");
  const int position = keyword ? 0 : positional_index(ts::field(call, "arguments"), arg);
  if (position < 0) return true;
  const Value callee = eval(fn, scope);
  // ext.fn(x): the C++ function's parameter decides (cuda::link); until then, a read.
  if (callee.k == Value::K::ExtFunction) {
    if (keyword || element >= 0) return true;
    extension_args_.push_back({ts::span(call), position});
    return false;
  }
  // act(x) of a singledispatch function: an implementation registered on it takes x (not followed).
  if (callee.k == Value::K::Function && dispatches(callee.index)) return true;
  const auto landing = landing_param(call, arg, scope);
  if (!landing) return true;
  const auto& [index, param] = *landing;
  if (element < 0) return name_read(index, param, depth + 1, seen);
  return element_read(index, param, static_cast<size_t>(element), depth + 1, seen);
}

// Whether function `fi` reads element `element` of the list its parameter `list` holds: every use of
// the list is an unpacking into plain names (`a, b = args`), whose element-th name is then followed,
// or `list.clear()`.
bool Extractor::element_read(int fi, const std::string& list, size_t element, int depth, ReadVisits& seen) {
  const TSNode body = ts::field(function_nodes_[fi], "body");
  bool read = false;
  std::vector<std::string> unpacked_into;
  ts::preorder(body, [&](TSNode node) {
    if (read) return false;
    if (!ts::is(node, "identifier") || ts::text(node, src_) != list || !names_variable(node)) return true;
    const TSNode parent = ts::parent(node);
    if (clears_list(node, src_)) return true;
    const TSNode left = ts::field(parent, "left");
    if (!ts::is(parent, "assignment") || !ts_node_eq(ts::field(parent, "right"), node) ||
        !(ts::is(left, "pattern_list") || ts::is(left, "tuple_pattern") || ts::is(left, "list_pattern"))) {
      read = !store_position(node);
      return !read;
    }
    const std::vector<TSNode> targets = ts::named_children(left);
    if (element >= targets.size() ||
        std::any_of(targets.begin(), targets.end(), [](TSNode t) { return !ts::is(t, "identifier"); })) {
      read = true;
      return false;
    }
    unpacked_into.emplace_back(ts::text(targets[element], src_));
    return true;
  });
  if (read || unpacked_into.empty()) return true;
  return std::any_of(unpacked_into.begin(), unpacked_into.end(),
                     [&](const std::string& name) { return name_read(fi, name, depth + 1, seen); });
}

// One input fact per tensor input of each entry (see InputParam): parameters after the instance, with
// no default, not `*args`/`**kwargs`, not outputs, and known to be tensors (param_kind).
void Extractor::finish_inputs() {
  for (const int fi : facts_.entries) {
    if (fi < 0 || facts_.functions[fi].kind != FunctionKind::Python) continue;
    const int scope = function_scope_[fi];
    for (const std::string& name : facts_.functions[fi].params) {
      if (name == scopes_[scope].self_name || is_output_param(name, scope)) continue;
      const TSNode p = scopes_[scope].param_nodes.at(name);
      if (!ts::is(p, "identifier") && !ts::is(p, "typed_parameter")) continue;  // defaults, splats
      if (param_kind(scope, name) != TensorKind::Yes) continue;
      ReadVisits seen;
      InputParam in;
      in.name = name;
      in.function = fi;
      extension_args_.clear();
      in.read_elsewhere = name_read(fi, name, 0, seen);
      in.extension_args = in.read_elsewhere ? decltype(extension_args_){} : extension_args_;
      in.read = in.read_elsewhere || !in.extension_args.empty();
      in.reachable = facts_.functions[fi].reachable;
      in.span = ts::span(p);
      facts_.inputs.push_back(std::move(in));
    }
  }
}

}  // namespace kgate::python::detail
