// Extractor, pass 2: arithmetic operators as the tensor ops they stand for. `a @ b` is torch.matmul and
// `x * y + z` on full tensors is torch.mul and torch.add: PyTorch computes them, so they are recorded
// as calls (torch.Tensor.__mul__, ...) that the compute rules judge like the method forms. Whether an
// operand is a full tensor is decided by a small, conservative type judgement (tensor_kind): shape
// arithmetic, launch grids and one-element glue (a summed loss divided by N) stay plain Python.
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

namespace {

// The dunder name of an arithmetic operator ("mul" for `*`), empty for other operators.
std::string_view dunder_of(std::string_view op) {
  if (op == "+" || op == "+=") return "add";
  if (op == "-" || op == "-=") return "sub";
  if (op == "*" || op == "*=") return "mul";
  if (op == "/" || op == "/=") return "truediv";
  if (op == "//" || op == "//=") return "floordiv";
  if (op == "%" || op == "%=") return "mod";
  if (op == "**" || op == "**=") return "pow";
  return {};
}

// Tensor attributes that are tensors again (x.T), and those that are metadata (x.shape).
bool tensor_attribute(std::string_view a) {
  return a == "T" || a == "mT" || a == "H" || a == "mH" || a == "data" || a == "real" || a == "imag";
}
// Tensor methods whose result is no tensor: metadata (tensor_metadata_method), and Python numbers,
// lists and pointers made from the values.
bool metadata_method(std::string_view m) {
  return tensor_metadata_method(m) || m == "item" || m == "tolist" || m == "data_ptr" || m == "untyped_storage" ||
         m == "type" || m == "numpy";
}

// Reductions that, called without a dimension, give one element: arithmetic on it is glue.
bool full_reduction(std::string_view m) {
  static const std::unordered_set<std::string_view> names = {
      "sum", "mean", "max", "min", "amax",          "amin",   "norm",    "prod",
      "all", "any",  "std", "var", "count_nonzero", "nansum", "nanmean", "logsumexp"};
  return names.count(m) > 0;
}

// torch functions whose result is no tensor, or one element by construction.
bool non_tensor_torch(std::string_view name) {
  static const std::unordered_set<std::string_view> names = {
      "numel",    "Size",          "device",      "dtype",         "finfo",
      "iinfo",    "result_type",   "can_cast",    "promote_types", "broadcast_shapes",
      "typename", "scalar_tensor", "manual_seed", "seed",          "initial_seed"};
  return names.count(name) > 0 || name.rfind("is_", 0) == 0 || name.rfind("get_", 0) == 0 ||
         name.rfind("set_", 0) == 0 || name.empty() || !(name[0] >= 'a' && name[0] <= 'z');
}

// The operator method that a builtin or operator-module function stands for on a tensor ("abs" for
// builtins.abs, "iadd" for operator.iadd); empty for any other function.
std::string_view operator_dunder(std::string_view path) {
  static const std::unordered_map<std::string_view, std::string_view> kDunder = {
      {"builtins.abs", "abs"},           {"builtins.pow", "pow"},
      {"builtins.round", "round"},       {"builtins.sum", "add"},
      {"builtins.divmod", "floordiv"},   {"operator.add", "add"},
      {"operator.sub", "sub"},           {"operator.mul", "mul"},
      {"operator.truediv", "truediv"},   {"operator.floordiv", "floordiv"},
      {"operator.mod", "mod"},           {"operator.pow", "pow"},
      {"operator.neg", "neg"},           {"operator.abs", "abs"},
      {"operator.invert", "invert"},     {"operator.iadd", "iadd"},
      {"operator.isub", "isub"},         {"operator.imul", "imul"},
      {"operator.itruediv", "itruediv"}, {"operator.ifloordiv", "ifloordiv"},
      {"operator.ipow", "ipow"},         {"operator.imod", "imod"},
      {"operator.__add__", "add"},       {"operator.__mul__", "mul"},
      {"operator.__sub__", "sub"},       {"operator.__truediv__", "truediv"},
      {"operator.__neg__", "neg"}};
  const auto it = kDunder.find(path);
  return it == kDunder.end() ? std::string_view{} : it->second;
}

bool operator_function(std::string_view path) { return !operator_dunder(path).empty(); }

}  // namespace

// Yes where `annotation` names a tensor, No where it names a Python number, string or bool.
Extractor::TensorKind Extractor::annotated_kind(TSNode annotation) const {
  const std::string_view text = ts::text(annotation, src_);
  if (text == "torch.Tensor" || text == "Tensor") return TensorKind::Yes;
  if (text == "int" || text == "float" || text == "bool" || text == "str") return TensorKind::No;
  return TensorKind::Unknown;
}

// What a parameter of the function whose scope this is holds: one element where the task says so of an
// entry's parameter (LeetGPU's `mse` of shape (1,): `mse /= N` is glue, like torch.zeros(1)), else its
// annotation, else a tensor for the inputs of the model class's entry methods (KernelBench hands forward
// the tensors of get_inputs()), else unknown.
Extractor::TensorKind Extractor::param_kind(int scope, const std::string& name) const {
  const auto it = scopes_[scope].param_nodes.find(name);
  if (it == scopes_[scope].param_nodes.end()) return TensorKind::Unknown;
  if (one_element_param(scope, name)) return TensorKind::No;
  const TSNode p = it->second;
  if (TSNode type = ts::field(p, "type"); !ts_node_is_null(type)) return annotated_kind(type);
  if (ts::is(p, "list_splat_pattern") || ts::is(p, "dictionary_splat_pattern")) return TensorKind::Unknown;
  const int fn = scopes_[scope].function;
  const bool entry_method = fn >= 0 && (!facts_.functions[fn].class_name.empty() || rebound_entries_.count(fn)) &&
                            std::find(facts_.entries.begin(), facts_.entries.end(), fn) != facts_.entries.end();
  return entry_method ? TensorKind::Yes : TensorKind::Unknown;
}

bool Extractor::one_element_param(int scope, const std::string& name) const {
  const int fn = scopes_[scope].function;
  return fn >= 0 && scopes_[scope].param_nodes.count(name) &&
         std::find(facts_.entries.begin(), facts_.entries.end(), fn) != facts_.entries.end() &&
         std::find(harness_.one_element_names.begin(), harness_.one_element_names.end(), name) !=
             harness_.one_element_names.end();
}

// All the bindings of a name agree: Yes or No; otherwise Unknown. A binding that reads the name itself
// (`y = y * 2`, `n = n + 1`, `y += v`) is judged under an assumption: the kind the other bindings give
// (with the name unknown), kept where every binding then gives it.
Extractor::TensorKind Extractor::bindings_kind(const std::vector<const Binding*>& bindings, int depth) {
  if (bindings.empty()) return TensorKind::Unknown;
  // A parameter's rebindings are judged per use: the set is its first binding and its size.
  const std::pair<const Binding*, size_t> key{bindings.front(), bindings.size()};
  if (auto it = tensor_assumed_.find(key); it != tensor_assumed_.end()) return it->second;
  const auto judge = [&](TensorKind assumed) {
    tensor_assumed_[key] = assumed;
    std::vector<TensorKind> kinds;
    for (const Binding* b : bindings) {
      TensorKind k = TensorKind::Unknown;
      if (!ts_node_is_null(b->expr)) {
        k = tensor_kind(b->expr, b->scope, depth + 1);
      } else if (!ts_node_is_null(b->augmented)) {
        // `y += v` binds y to y + v.
        const TensorKind v = tensor_kind(ts::field(b->augmented, "right"), b->scope, depth + 1);
        k = v == TensorKind::Yes || assumed == TensorKind::Yes ? TensorKind::Yes
            : v == TensorKind::No && assumed == TensorKind::No ? TensorKind::No
                                                               : TensorKind::Unknown;
      }
      kinds.push_back(k);
    }
    tensor_assumed_.erase(key);
    return kinds;
  };
  TensorKind grounded = TensorKind::Unknown;
  for (TensorKind k : judge(TensorKind::Unknown)) {
    if (k == TensorKind::Unknown) continue;
    if (grounded != TensorKind::Unknown && k != grounded) return TensorKind::Unknown;
    grounded = k;
  }
  if (grounded == TensorKind::Unknown) return TensorKind::Unknown;
  for (TensorKind k : judge(grounded))
    if (k != grounded) return TensorKind::Unknown;
  return grounded;
}

Extractor::TensorKind Extractor::tensor_kind(TSNode e, int scope, int depth) {
  if (depth > 0 || ts_node_is_null(e) || !tensor_assumed_.empty()) return judge_tensor_kind(e, scope, depth);
  const std::tuple<uint32_t, uint32_t, TSSymbol> key{ts_node_start_byte(e), ts_node_end_byte(e), ts_node_symbol(e)};
  if (auto it = tensor_kinds_.find(key); it != tensor_kinds_.end()) return it->second;
  return tensor_kinds_[key] = judge_tensor_kind(e, scope, depth);
}

Extractor::TensorKind Extractor::judge_tensor_kind(TSNode e, int scope, int depth) {
  if (ts_node_is_null(e) || depth > 8) return TensorKind::Unknown;
  const std::string_view t = ts::type(e);
  if (t == "parenthesized_expression") return tensor_kind(ts::named_child(e, 0), scope, depth + 1);
  if (t == "integer" || t == "float" || t == "true" || t == "false" || t == "none" || t == "string" ||
      t == "concatenated_string" || t == "comparison_operator" || t == "boolean_operator" || t == "not_operator")
    return TensorKind::No;
  if (t == "unary_operator") return tensor_kind(ts::field(e, "argument"), scope, depth + 1);
  if (t == "binary_operator") {
    if (dunder_of(ts::text(ts::field(e, "operator"), src_)).empty() && ts::text(ts::field(e, "operator"), src_) != "@")
      return TensorKind::Unknown;
    const TensorKind l = tensor_kind(ts::field(e, "left"), scope, depth + 1);
    const TensorKind r = tensor_kind(ts::field(e, "right"), scope, depth + 1);
    if (l == TensorKind::Yes || r == TensorKind::Yes) return TensorKind::Yes;
    return l == TensorKind::No && r == TensorKind::No ? TensorKind::No : TensorKind::Unknown;
  }
  if (t == "conditional_expression") {
    const TensorKind a = tensor_kind(ts::named_child(e, 0), scope, depth + 1);
    const TensorKind b = tensor_kind(ts::named_child(e, 2), scope, depth + 1);
    return a == b ? a : TensorKind::Unknown;
  }
  if (t == "identifier") {
    const std::string name(ts::text(e, src_));
    const Found f = find_name(name, scope);
    if (f.k == Found::K::Param) {
      // The bindings of the parameter that reach this use (from the last unconditional one on), else
      // the parameter itself.
      if (auto rebound = param_rebinding(name, f.scope, ts_node_start_byte(e))) return bindings_kind(*rebound, depth);
      const TensorKind k = param_kind(f.scope, name);
      return k == TensorKind::Unknown ? helper_param_kind(f.scope, name, depth) : k;
    }
    if (f.k == Found::K::Binding && f.bindings) {
      std::vector<const Binding*> all;
      for (const Binding& b : *f.bindings) all.push_back(&b);
      return bindings_kind(all, depth);
    }
    return TensorKind::Unknown;
  }
  if (t == "attribute") {
    const std::string_view attr = ts::text(ts::field(e, "attribute"), src_);
    const TensorKind obj = tensor_kind(ts::field(e, "object"), scope, depth + 1);
    if (obj != TensorKind::Yes) return TensorKind::Unknown;
    if (tensor_metadata_attribute(attr)) return TensorKind::No;
    return tensor_attribute(attr) ? TensorKind::Yes : TensorKind::Unknown;
  }
  if (t == "subscript") {
    // x.shape[0] is a number; x[:, 0] and x[..., None] are tensors; x[0] may hold one element.
    TSNode value = ts::field(e, "value");
    if (ts::is(value, "attribute") && tensor_metadata_attribute(ts::text(ts::field(value, "attribute"), src_)))
      return TensorKind::No;
    if (tensor_kind(value, scope, depth + 1) != TensorKind::Yes) return TensorKind::Unknown;
    for (uint32_t i = 0, n = ts::named_count(e); i < n; ++i) {
      TSNode part = ts::named_child(e, i);
      if (ts_node_eq(part, value)) continue;
      const std::string_view pt = ts::type(part);
      if (pt == "slice" || pt == "ellipsis" || pt == "none") return TensorKind::Yes;
    }
    return TensorKind::Unknown;
  }
  if (t == "call") {
    TSNode callee = ts::field(e, "function");
    TSNode args = ts::field(e, "arguments");
    if (ts::is(callee, "attribute")) {
      const std::string_view method = ts::text(ts::field(callee, "attribute"), src_);
      if (tensor_kind(ts::field(callee, "object"), scope, depth + 1) == TensorKind::Yes) {
        if (metadata_method(method)) return TensorKind::No;
        if (full_reduction(method) && ts::named_count(args) == 0) return TensorKind::No;
        return TensorKind::Yes;
      }
    }
    const Value v = eval(callee, scope);
    // A function of the file: what all its returns give (a launcher returns the tensor it filled).
    if (v.k == Value::K::Function && v.index >= 0) {
      std::vector<std::pair<TSNode, int>> returned;
      if (const TSNode node = function_nodes_[v.index]; ts::is(node, "lambda"))
        returned.emplace_back(ts::field(node, "body"), function_scope_[v.index]);
      if (auto r = return_exprs_.find(v.index); r != return_exprs_.end())
        for (const Binding& b : r->second) returned.emplace_back(b.expr, b.scope);
      if (returned.empty() || (facts_.functions[v.index].kind != FunctionKind::Python &&
                               facts_.functions[v.index].kind != FunctionKind::Lambda))
        return TensorKind::Unknown;
      TensorKind all = tensor_kind(returned.front().first, returned.front().second, depth + 1);
      for (const auto& [expr, s] : returned)
        if (tensor_kind(expr, s, depth + 1) != all) return TensorKind::Unknown;
      return all;
    }
    if (v.k != Value::K::Path) return TensorKind::Unknown;
    // abs(x), pow(x, 2), operator.add(x, y): a tensor where an operand is one (record_operator_function).
    if (operator_function(v.path)) {
      TensorKind kind = TensorKind::No;
      for (uint32_t i = 0; i < 2 && !ts_node_is_null(positional_arg(args, i)); ++i) {
        const TensorKind k = tensor_kind(positional_arg(args, i), scope, depth + 1);
        if (k == TensorKind::Yes) return k;
        if (k == TensorKind::Unknown) kind = k;
      }
      return kind;
    }
    if (v.path == "builtins.int" || v.path == "builtins.float" || v.path == "builtins.len" ||
        v.path == "builtins.bool" || v.path.rfind("math.", 0) == 0)
      return TensorKind::No;
    std::string_view name = v.path;
    if (name.rfind("torch.nn.functional.", 0) == 0) {
      name.remove_prefix(std::string_view("torch.nn.functional.").size());
    } else if (name.rfind("torch.", 0) == 0 && name.find('.', 6) == std::string_view::npos) {
      name.remove_prefix(6);
    } else {
      return TensorKind::Unknown;
    }
    if (non_tensor_torch(name)) return TensorKind::No;
    // torch.zeros(1), torch.tensor(2.0): one element, glue.
    if (name == "tensor" || name == "as_tensor") {
      TSNode first = positional_arg(args, 0);
      const std::string_view ft = ts::type(first);
      if (ft == "integer" || ft == "float") return TensorKind::No;
    }
    if (name == "zeros" || name == "ones" || name == "empty" || name == "full" || name == "rand" || name == "randn") {
      TSNode first = positional_arg(args, 0);
      if (ts::text(first, src_) == "1" || ts::text(first, src_) == "(1,)" || ts::text(first, src_) == "()")
        return TensorKind::No;
    }
    return TensorKind::Yes;
  }
  return TensorKind::Unknown;
}

void Extractor::record_tensor_operator(TSNode node, int scope, const Guard& guard, const std::string& resolved,
                                       TSNode receiver) {
  Call c;
  c.callee = std::string(ts::text(ts::field(node, "operator"), src_));
  c.resolved = resolved;
  c.method = resolved.substr(resolved.rfind('.') + 1);
  // `x = kernel(x); x += identity` writes the rebound local, not the caller's tensor.
  c.receiver = root_kind(receiver, scope) == ReceiverKind::Param && still_param(receiver, scope) ? ReceiverKind::Param
                                                                                                 : ReceiverKind::Value;
  c.function = fn_of(scope);
  c.guard = guard;
  c.span = ts::span(node);
  call_start_.push_back(ts_node_start_byte(node));
  facts_.calls.push_back(std::move(c));
}

// `a @ b` is a matmul whatever its operands (no other type defines it in a submission); `+ - * / // %
// **` are tensor ops where one operand is a full tensor. Of a chain (`y * y + x`) the outermost
// operator is recorded, once; the kernel-language bodies are the kernels themselves and not judged.
void Extractor::record_binary_operator(TSNode node, int scope, const Guard& guard) {
  const std::string_view op = ts::text(ts::field(node, "operator"), src_);
  if (op == "@") {
    record_tensor_operator(node, scope, guard, "operator.matmul", ts::field(node, "left"));
    return;
  }
  const std::string_view dunder = dunder_of(op);
  if (dunder.empty() || kernel_body(scope)) return;
  TSNode parent = ts_node_parent(node);
  while (ts::is(parent, "parenthesized_expression")) parent = ts_node_parent(parent);
  if (ts::is(parent, "binary_operator") && !dunder_of(ts::text(ts::field(parent, "operator"), src_)).empty() &&
      tensor_kind(parent, scope, 0) == TensorKind::Yes)
    return;
  const TensorKind left = tensor_kind(ts::field(node, "left"), scope, 0);
  const TensorKind right = left == TensorKind::Yes ? left : tensor_kind(ts::field(node, "right"), scope, 0);
  if (left == TensorKind::Yes) {
    record_tensor_operator(node, scope, guard, "torch.Tensor.__" + std::string(dunder) + "__", ts::field(node, "left"));
  } else if (right == TensorKind::Yes) {
    record_tensor_operator(node, scope, guard, "torch.Tensor.__r" + std::string(dunder) + "__",
                           ts::field(node, "right"));
  } else if (left == TensorKind::Unknown || right == TensorKind::Unknown) {
    pend_operator(node, scope, guard);
  }
}

// `y += x` on a tensor: the in-place operator (torch.Tensor.__iadd__), which input-mutation also
// judges where the target is a tensor the function was given.
void Extractor::record_augmented_operator(TSNode node, int scope, const Guard& guard) {
  const std::string_view dunder = dunder_of(ts::text(ts::field(node, "operator"), src_));
  if (dunder.empty() || kernel_body(scope)) return;
  TSNode target = ts::field(node, "left");
  const TensorKind kind = tensor_kind(target, scope, 0);
  if (kind == TensorKind::Unknown) pend_operator(node, scope, guard);
  if (kind != TensorKind::Yes) return;
  record_tensor_operator(node, scope, guard, "torch.Tensor.__i" + std::string(dunder) + "__", target);
}

// `-x` and `~x` on a full tensor: torch.Tensor.__neg__ and __invert__ (`+x` is x). Inside an
// arithmetic chain on tensors, the chain's operator is recorded instead.
void Extractor::record_unary_operator(TSNode node, int scope, const Guard& guard) {
  const std::string_view op = ts::text(ts::field(node, "operator"), src_);
  if ((op != "-" && op != "~") || kernel_body(scope)) return;
  TSNode parent = ts_node_parent(node);
  while (ts::is(parent, "parenthesized_expression")) parent = ts_node_parent(parent);
  if (ts::is(parent, "binary_operator") && !dunder_of(ts::text(ts::field(parent, "operator"), src_)).empty() &&
      tensor_kind(parent, scope, 0) == TensorKind::Yes)
    return;
  const TSNode operand = ts::field(node, "argument");
  const TensorKind kind = tensor_kind(operand, scope, 0);
  if (kind == TensorKind::Unknown) pend_operator(node, scope, guard);
  if (kind != TensorKind::Yes) return;
  record_tensor_operator(node, scope, guard, op == "-" ? "torch.Tensor.__neg__" : "torch.Tensor.__invert__", operand);
}

// The builtins and operator-module functions that are a tensor operator when handed a full tensor:
// abs(x), pow(x, 2), round(x), sum([x, y]), operator.add(x, y), operator.iadd(z, y). Recorded as the
// operator's method (torch.Tensor.__abs__, __add__, __iadd__, ...) beside the call itself.
void Extractor::record_operator_function(TSNode node, const std::string& resolved, int scope, const Guard& guard) {
  const TSNode args = ts::field(node, "arguments");
  // functools.reduce(operator.add, [a, b]): the operator folds the sequence's elements.
  const bool reduce = resolved == "functools.reduce" || resolved == "_functools.reduce";
  const Value folded = reduce ? eval(positional_arg(args, 0), scope) : Value{};
  const std::string_view dunder = operator_dunder(folded.k == Value::K::Path ? folded.path : resolved);
  if (dunder.empty() || kernel_body(scope)) return;
  bool unknown = false;
  for (uint32_t i = reduce ? 1 : 0; i < 2; ++i) {
    TSNode arg = positional_arg(args, i);
    if (ts_node_is_null(arg)) break;
    // sum([x, y]), sum(t for t in ts), reduce(f, xs): the elements are the operands.
    const TensorKind kind =
        resolved == "builtins.sum" || reduce ? elements_kind(arg, scope, 0) : tensor_kind(arg, scope, 0);
    unknown = unknown || kind == TensorKind::Unknown;
    if (kind != TensorKind::Yes) continue;
    Call c;
    c.callee = std::string(ts::text(ts::field(node, "function"), src_)).substr(0, 200);
    c.resolved = "torch.Tensor.__" + std::string(dunder) + "__";
    c.method = c.resolved.substr(c.resolved.rfind('.') + 1);
    // The receiver is the first operand (operator.iadd(z, y) writes z), whichever one is the tensor.
    const TSNode first = positional_arg(args, 0);
    c.receiver = root_kind(first, scope) == ReceiverKind::Param && still_param(first, scope) ? ReceiverKind::Param
                                                                                             : ReceiverKind::Value;
    c.function = fn_of(scope);
    c.guard = guard;
    c.span = ts::span(node);
    call_start_.push_back(ts_node_start_byte(node));
    facts_.calls.push_back(std::move(c));
    return;
  }
  if (unknown) pend_operator(node, scope, guard, resolved);
}

// Whether the elements of a sequence are full tensors: any element of a list, tuple or set display, the
// body of a comprehension, what a name is bound to, and the rows of a tensor.
Extractor::TensorKind Extractor::elements_kind(TSNode seq, int scope, int depth) {
  if (ts_node_is_null(seq) || depth > 4) return TensorKind::Unknown;
  const std::string_view t = ts::type(seq);
  if (t == "list" || t == "tuple" || t == "set") {
    TensorKind all = TensorKind::No;
    for (TSNode item : ts::named_children(seq)) {
      const TensorKind k = ts::is(item, "list_splat") ? elements_kind(ts::named_child(item, 0), scope, depth + 1)
                                                      : tensor_kind(item, scope, depth + 1);
      if (k == TensorKind::Yes) return k;
      if (k == TensorKind::Unknown) all = k;
    }
    return all;
  }
  if (t == "generator_expression" || t == "list_comprehension" || t == "set_comprehension")
    return tensor_kind(ts::field(seq, "body"), scope, depth + 1);
  if (t == "identifier") {
    const Found f = find_name(std::string(ts::text(seq, src_)), scope);
    if (f.k == Found::K::Binding && f.bindings && !f.bindings->empty()) {
      TensorKind all = TensorKind::No;
      for (const Binding& b : *f.bindings) {
        const TensorKind k = ts_node_is_null(b.expr) ? TensorKind::Unknown : elements_kind(b.expr, b.scope, depth + 1);
        if (k == TensorKind::Yes) return k;
        if (k == TensorKind::Unknown) all = k;
      }
      return all;
    }
  }
  return tensor_kind(seq, scope, depth + 1);
}

// Keeps an operator for finish_helper_operators where it sits in a function of the file that is no
// entry (its parameters may be typed from its call sites then), during the walk only.
void Extractor::pend_operator(TSNode node, int scope, const Guard& guard, const std::string& resolved) {
  const int fn = fn_of(scope);
  if (helper_params_typed_ || fn < 0 || std::count(facts_.entries.begin(), facts_.entries.end(), fn)) return;
  pending_operators_.push_back({node, scope, guard, resolved});
}

// What the file passes a parameter of a function that is no entry (a helper, a lambda, a method called
// as self.m(x)), once every call site is known: a full tensor where one call passes one (the operator
// then runs on a tensor at least there), not one where every argument and the default are not, else
// unknown. Only while finish_helper_operators runs: during the walk the call sites are not all known.
Extractor::TensorKind Extractor::helper_param_kind(int scope, const std::string& name, int depth) {
  const int fn = scopes_[scope].function;
  if (!helper_params_typed_ || fn < 0 || std::count(facts_.entries.begin(), facts_.entries.end(), fn) ||
      (facts_.functions[fn].kind != FunctionKind::Python && facts_.functions[fn].kind != FunctionKind::Lambda))
    return TensorKind::Unknown;
  const std::vector<Binding> passed = param_arguments(scope, name);
  std::vector<std::pair<TSNode, int>> sequences;  // map(f, xs) and reduce(f, xs): the parameter's elements
  if (auto sites = element_sites_.find(fn); sites != element_sites_.end())
    if (const ParamPlace place = param_place(fn, name); place.position >= 0 && !place.gathered)
      for (const ElementSite& site : sites->second)
        if (!site.reduce || place.position < 2)
          sequences.emplace_back(positional_arg(site.args, site.reduce ? 1 : static_cast<uint32_t>(place.position) + 1),
                                 site.scope);
  if (passed.empty() && sequences.empty()) return TensorKind::Unknown;
  TensorKind all = TensorKind::No;
  const auto fold = [&](TensorKind k) {
    if (k == TensorKind::Unknown) all = k;
    return k == TensorKind::Yes;
  };
  for (const Binding& b : passed)
    if (fold(tensor_kind(b.expr, b.scope, depth + 1))) return TensorKind::Yes;
  for (const auto& [seq, s] : sequences)
    if (fold(elements_kind(seq, s, depth + 1))) return TensorKind::Yes;
  return all;
}

// map(f, xs) and functools.reduce(f, xs) with f a function of the file: f's parameters take xs's
// elements (helper_param_kind).
void Extractor::note_element_sites(TSNode call, const std::string& resolved, int scope) {
  const bool reduce = resolved == "functools.reduce" || resolved == "_functools.reduce";
  if (!reduce && resolved != "builtins.map") return;
  const TSNode args = ts::field(call, "arguments");
  if (const Value f = eval(positional_arg(args, 0), scope); f.k == Value::K::Function && f.index >= 0)
    element_sites_[f.index].push_back({args, scope, reduce});
}

// The operators pend_operator kept, judged again with helpers' parameters typed from their call sites.
// The answers kept per node during the walk knew no call site, so they are dropped before and after.
void Extractor::finish_helper_operators() {
  helper_params_typed_ = true;
  tensor_kinds_.clear();
  for (const PendingOperator& p : pending_operators_) {
    const std::string_view t = ts::type(p.node);
    if (t == "binary_operator")
      record_binary_operator(p.node, p.scope, p.guard);
    else if (t == "augmented_assignment")
      record_augmented_operator(p.node, p.scope, p.guard);
    else if (t == "unary_operator")
      record_unary_operator(p.node, p.scope, p.guard);
    else
      record_operator_function(p.node, p.resolved, p.scope, p.guard);
  }
  pending_operators_.clear();
  tensor_kinds_.clear();
  helper_params_typed_ = false;
}

// `x is self._last_input`: Python's identity operator used as a cache key, id() without the call. It is
// recorded as builtins.id (callee "is" / "is not") where one side is the entry's input (or a view of it)
// and the other is state kept between calls (an attribute of self, a module global); identity against
// None, or between two inputs, is not a key.
void Extractor::record_identity_comparison(TSNode node, int scope, const Guard& guard) {
  if (ts::named_count(node) != 2 || kernel_body(scope) || fn_of(scope) < 0) return;
  TSNode left = ts::named_child(node, 0);
  TSNode right = ts::named_child(node, 1);
  const std::string op = comparison_operator(node);
  if (op != "is" && op != "is not") return;
  auto kept = [&](TSNode n) {
    if (ts::is(n, "attribute")) return root_kind(n, scope) == ReceiverKind::Self;
    if (!ts::is(n, "identifier")) return false;
    const Found f = find_name(std::string(ts::text(n, src_)), scope);
    return (f.k == Found::K::Binding && f.scope == 0) || f.k == Found::K::Global;
  };
  auto input = [&](TSNode n) { return root_kind(n, scope) == ReceiverKind::Param; };
  if (!((kept(left) && input(right)) || (kept(right) && input(left)))) return;
  Call c;
  c.callee = op;
  c.resolved = "builtins.id";
  c.method = "id";
  c.receiver = ReceiverKind::Param;
  c.function = fn_of(scope);
  c.guard = guard;
  c.span = ts::span(node);
  call_start_.push_back(ts_node_start_byte(node));
  facts_.calls.push_back(std::move(c));
}

// A body in a kernel language (a @triton.jit or DSL kernel, or a function nested in one).
bool Extractor::kernel_body(int scope) const {
  for (int f = fn_of(scope); f >= 0; f = facts_.functions[f].parent)
    if (facts_.functions[f].kind == FunctionKind::TritonJit || facts_.functions[f].kind == FunctionKind::DslKernel)
      return true;
  return false;
}

// A value the host holds and no input's data feeds: a number or a tuple of them, a shape (x.shape,
// x.size(1), len(x), x.numel()), a constructor argument kept on self (`self.normalized_shape`, set from
// __init__'s parameter), and a tensor made from such values (torch.tensor(shape)). An input's values
// read back to the host (x.tolist(), x.item()) are not.
bool Extractor::host_value(TSNode e, int scope, int depth) {
  if (ts_node_is_null(e) || depth > 6) return false;
  const std::string_view t = ts::type(e);
  if (t == "integer" || t == "float" || t == "true" || t == "false" || t == "none") return true;
  if (t == "parenthesized_expression") return host_value(ts::named_child(e, 0), scope, depth + 1);
  if (t == "tuple" || t == "list" || t == "binary_operator" || t == "unary_operator") {
    for (uint32_t i = 0; i < ts::named_count(e); ++i)
      if (!host_value(ts::named_child(e, i), scope, depth + 1)) return false;
    return ts::named_count(e) > 0;
  }
  if (t == "subscript") return host_value(ts::field(e, "value"), scope, depth + 1);
  if (t == "call") {
    TSNode fn = ts::field(e, "function");
    TSNode args = ts::field(e, "arguments");
    const auto all_args = [&] {
      for (uint32_t i = 0; i < ts::named_count(args); ++i)
        if (!host_value(ts::named_child(args, i), scope, depth + 1)) return false;
      return true;
    };
    // x.size(1), x.dim(), x.numel(): the shape of anything.
    if (ts::is(fn, "attribute")) {
      const std::string_view m = ts::text(ts::field(fn, "attribute"), src_);
      if (m == "size" || m == "dim" || m == "ndimension" || m == "numel" || m == "stride" || m == "element_size")
        return all_args();
    }
    const Value callee = eval(fn, scope);
    if (callee.k != Value::K::Path) return false;
    if (callee.path == "builtins.len") return true;
    const bool conversion = callee.path == "builtins.int" || callee.path == "builtins.float" ||
                            callee.path == "builtins.tuple" || callee.path == "builtins.list" ||
                            callee.path.rfind("math.", 0) == 0;
    const bool maker = callee.path == "torch.tensor" || callee.path == "torch.as_tensor" || callee.path == "torch.Size";
    // torch.prod(torch.tensor(shape)): a result computed from host values only is one too.
    if (callee.path.rfind("torch.", 0) == 0 && !maker && host_operands(e, scope, depth + 1)) return true;
    return (conversion || maker) && ts::named_count(args) > 0 &&
           (maker ? host_value(positional_arg(args, 0), scope, depth + 1) : all_args());
  }
  if (t == "identifier") {
    const std::string name(ts::text(e, src_));
    const Found f = find_name(name, scope);
    // A constructor's parameter (get_init_inputs' numbers), unless annotated as a tensor.
    const int fn = f.k == Found::K::Param ? scopes_[f.scope].function : -1;
    return fn >= 0 && facts_.functions[fn].name == "__init__" && param_kind(f.scope, name) != TensorKind::Yes;
  }
  if (t == "attribute") {
    TSNode object = ts::field(e, "object");
    const std::string_view attr = ts::text(ts::field(e, "attribute"), src_);
    if (attr == "shape" || attr == "ndim") return true;
    const Value owner = eval(object, scope);
    if (owner.k != Value::K::Self || owner.index < 0) return false;
    auto it = classes_[owner.index].self_attrs.find(std::string(attr));
    if (it == classes_[owner.index].self_attrs.end() || it->second.empty()) return false;
    for (const Binding& b : it->second)
      if (!host_value(b.expr, b.scope, depth + 1)) return false;
    return true;
  }
  return false;
}

// Python's Call::scalar_operands: a torch call that computes on a tensor made from host values, all
// of whose operands (the receiver of a method, and every positional argument) are host values, such
// as torch.prod(torch.tensor(self.normalized_shape)) and the .item() of that. A call with no such
// tensor among its operands (torch.randn(shape)) makes a tensor, it does not compute on one: not this.
bool Extractor::host_operands(TSNode call, int scope, int depth) {
  if (depth > 6) return false;
  TSNode fn = ts::field(call, "function");
  std::vector<TSNode> operands;
  if (ts::is(fn, "attribute") && eval(fn, scope).receiver != ReceiverKind::Module)
    operands.push_back(ts::field(fn, "object"));
  TSNode args = ts::field(call, "arguments");
  for (uint32_t i = 0; i < ts::named_count(args); ++i) {
    TSNode a = ts::named_child(args, i);
    if (ts::is(a, "keyword_argument") || ts::is(a, "comment")) continue;
    operands.push_back(a);
  }
  // Made from host values: by torch.tensor/as_tensor, or computed from such a tensor alone.
  const auto made_from_host = [&](TSNode o) {
    while (ts::is(o, "parenthesized_expression")) o = ts::named_child(o, 0);
    if (!ts::is(o, "call")) return false;
    const Value maker = eval(ts::field(o, "function"), scope);
    return maker.k == Value::K::Path && (maker.path == "torch.tensor" || maker.path == "torch.as_tensor" ||
                                         (maker.path.rfind("torch.", 0) == 0 && host_operands(o, scope, depth + 1)));
  };
  // A method of a one-element parameter of the entry (the task's loss: mse.div_(N)) on numbers alone:
  // glue on what the kernel reduced, as `mse /= N` is.
  if (ts::is(fn, "attribute") && ts::is(ts::field(fn, "object"), "identifier")) {
    const std::string receiver(ts::text(ts::field(fn, "object"), src_));
    const Found f = find_name(receiver, scope);
    if (!operands.empty() && f.k == Found::K::Param && one_element_param(f.scope, receiver) &&
        !param_rebinding(receiver, f.scope, ts_node_start_byte(call)) &&
        std::all_of(operands.begin() + 1, operands.end(),
                    [&](TSNode o) { return tensor_kind(o, scope, 0) == TensorKind::No; }))
      return true;
  }
  return std::any_of(operands.begin(), operands.end(), made_from_host) &&
         std::all_of(operands.begin(), operands.end(), [&](TSNode o) { return host_value(o, scope, depth + 1); });
}

// Whether an expression holds data read back from a device tensor: it contains x.cpu(), x.numpy(),
// x.tolist(), x.__array__() or x.to("cpu"), or a name whose binding does (a few steps deep).
bool Extractor::readback_operand(TSNode e, int scope, int depth) {
  if (ts_node_is_null(e) || depth > 4) return false;
  if (ts::is(e, "call")) {
    const Value fn = eval(ts::field(e, "function"), scope);
    if (fn.k == Value::K::Path && (fn.path == "torch.Tensor.cpu" || fn.path == "torch.Tensor.numpy" ||
                                   fn.path == "torch.Tensor.tolist" || fn.path == "torch.Tensor.__array__"))
      return true;
    if (fn.k == Value::K::Path && fn.path == "torch.Tensor.to")
      if (const auto to = fold_in(positional_arg(ts::field(e, "arguments"), 0), scope);
          to && to->text.rfind("cpu", 0) == 0)
        return true;
  }
  if (ts::is(e, "identifier")) {
    const Found f = find_name(std::string(ts::text(e, src_)), scope);
    if (f.k != Found::K::Binding || !f.bindings || f.bindings->empty()) return false;
    const Binding& b = f.scope == scope ? reaching_binding(*f.bindings, e) : f.bindings->back();
    return readback_operand(ts_node_is_null(b.expr) ? b.unpacked : b.expr, b.scope, depth + 1);
  }
  // Not into a lambda or comprehension's own scope: their names are not this scope's.
  if (ts::is(e, "lambda")) return false;
  for (TSNode c : ts::named_children(e))
    if (readback_operand(c, scope, depth)) return true;
  return false;
}

// Call::host_data: a numpy/scipy call whose receiver or an argument holds device data read back.
bool Extractor::host_data_operands(TSNode call, int scope) {
  TSNode fn = ts::field(call, "function");
  if (ts::is(fn, "attribute") && eval(fn, scope).receiver != ReceiverKind::Module &&
      readback_operand(ts::field(fn, "object"), scope))
    return true;
  for (TSNode a : ts::named_children(ts::field(call, "arguments")))
    if (readback_operand(ts::is(a, "keyword_argument") ? ts::field(a, "value") : a, scope)) return true;
  return false;
}

}  // namespace kgate::python::detail
