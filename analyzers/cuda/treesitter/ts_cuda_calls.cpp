// The tree-sitter-cuda engine, calls: names resolved through aliases and macros, casts, `<<<>>>` and
// launch-API launches (the collector: ts_collector.h).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/cuda/treesitter/ts_collector.h"

namespace kgate::cuda::detail {

using ts::field;
using ts::is;

// The tensor whose storage a pointer expression is: `x.data_ptr<float>()`, `x.data_ptr()`, through
// parentheses and casts (C-style and static_cast/reinterpret_cast), an offset into one
// (`x.data_ptr<float>() + 16`) or a pointer local bound to one; empty for anything else.
std::string TsCollector::storage_root(TSNode e) const {
  for (int d = 0; d < 8 && !ts_node_is_null(e); ++d) {
    const std::string_view t = ts::type(e);
    if (t == "parenthesized_expression" || t == "cast_expression") {
      e = ts_node_named_child(e, ts_node_named_child_count(e) - 1);
    } else if (t == "identifier") {
      const std::string name = str(e);
      auto it = storage_of_.find(name);
      if (it != storage_of_.end()) return it->second;
      // A raw pointer parameter is storage of its own (LeetGPU's `solve(const float* A, float* C, int N)`).
      const auto& params = current() >= 0 ? facts_.functions[current()].params : std::vector<std::string>{};
      const auto type = var_types_.find(name);
      const bool pointer_param = std::find(params.begin(), params.end(), name) != params.end() &&
                                 type != var_types_.end() && type->second.find('*') != std::string::npos;
      return pointer_param ? name : std::string{};
    } else if (t == "binary_expression") {
      const std::string op = str(field(e, "operator"));
      if (op != "+" && op != "-") return {};
      // The pointer side: the one that is a storage expression (an integer offset is not).
      const std::string left = storage_root(field(e, "left"));
      return !left.empty() || op == "-" ? left : storage_root(field(e, "right"));
    } else if (t == "call_expression") {
      TSNode fn = field(e, "function");
      TSNode args = field(e, "arguments");
      if (is(fn, "template_function")) {
        const std::string name = str(field(fn, "name"));
        if (name != "static_cast" && name != "reinterpret_cast" && name != "const_cast") return {};
        e = ts_node_named_child(args, 0);
      } else if (is(fn, "field_expression")) {
        TSNode member = field(fn, "field");
        const std::string m = is(member, "template_method") ? str(field(member, "name")) : str(member);
        if (!is_storage_accessor(m) || !is(field(fn, "argument"), "identifier")) return {};
        const std::string base = str(field(fn, "argument"));
        auto type = var_types_.find(base);
        return type != var_types_.end() && type->second.find("Tensor") != std::string::npos ? base : std::string{};
      } else {
        return {};
      }
    } else {
      return {};
    }
  }
  return {};
}

std::string TsCollector::resolve(TSNode fn) const {
  if (ts_node_is_null(fn)) return {};
  std::string_view t = ts::type(fn);
  if (t == "template_function") return canonical(str(field(fn, "name")));
  if (t == "field_expression") {
    TSNode arg = field(fn, "argument");
    TSNode member = field(fn, "field");
    std::string m = is(member, "template_method") ? str(field(member, "name")) : str(member);
    // `total.sqrt().reciprocal()`: a method of the tensor an ATen call returned.
    if (is(arg, "call_expression") && tensor_expression(arg)) return "at::Tensor::" + m;
    std::string base = root_name(arg);
    auto it = var_types_.find(base);
    if (it != var_types_.end() && is_tensor_variable_type(it->second)) return "at::Tensor::" + m;
    if (it != var_types_.end()) {
      std::string ty = squeeze(it->second);
      for (const char* q : {"const", "&", "*"})
        for (size_t p; (p = ty.find(q)) != std::string::npos;) ty.erase(p, std::string_view(q).size());
      return canonical(ty) + "::" + m;
    }
    return "?::" + m;
  }
  return canonical(str(fn));
}

// Records a call (or a launch, then returns true).
bool TsCollector::call(TSNode n, const Guard& g) {
  if (skip_.count(ts::key(n))) return false;
  TSNode fn = field(n, "function");
  TSNode args = field(n, "arguments");
  TSNode launch_cfg{};
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
    if (is(ts_node_named_child(n, i), "kernel_call_syntax")) launch_cfg = ts_node_named_child(n, i);
  if (!ts_node_is_null(launch_cfg)) {
    chevron(n, fn, launch_cfg, args, g);
    return true;
  }
  if (is(fn, "identifier") && macro_launches(n, str(fn), args, g)) return true;
  Call c;
  c.callee = squeeze(str(fn));
  // A call through a token-pasting macro: `MK(Create, WithFlags)(&s, flags)`.
  if (is(fn, "call_expression") && is(field(fn, "function"), "identifier")) {
    if (auto pasted = expand_pasting(str(field(fn, "function")), field(fn, "arguments"))) {
      c.resolved = canonical(*pasted);
      c.dynamic_name = true;
      c.callee += " [token-pasted]";
      skip_.insert(ts::key(fn));
    }
  }
  if (c.resolved.empty() && is(fn, "identifier") && macros_.count(str(fn)) && macros_.at(str(fn)).function_like) {
    // A function-like macro used as a call: record the macro's pasted name when there is one.
    if (auto pasted = expand_pasting(str(fn), args)) {
      c.resolved = canonical(*pasted);
      c.dynamic_name = true;
      c.callee += " [token-pasted]";
    }
  }
  if (c.resolved.empty()) c.resolved = resolve(fn);
  const std::vector<TSNode> arg_nodes = named_children(args);
  if (is(fn, "identifier")) {
    if (auto inner = macro_callee(str(fn))) {
      c.resolved = canonical(*inner);
      c.callee += " [macro]";
    }
    if (auto label = asm_labels_.find(c.resolved); label != asm_labels_.end()) c.resolved = label->second;
    if (std::string op = through_using_namespace(c.resolved, arg_nodes); !op.empty()) c.resolved = op;
  }
  if (c.resolved.empty() || c.resolved == "__cudaPushCallConfiguration") return false;
  c.method = std::string(last_component(c.resolved));
  if (is(fn, "field_expression")) {
    std::string base = root_name(field(fn, "argument"));
    const auto& params = current() >= 0 ? facts_.functions[current()].params : std::vector<std::string>{};
    const auto at = std::find(params.begin(), params.end(), base);
    c.receiver = at != params.end() ? ReceiverKind::Param : ReceiverKind::Value;
    if (at != params.end()) c.param_index = static_cast<int>(at - params.begin());
    if (!c.method.empty() && c.method.back() == '_' && c.resolved.rfind("at::", 0) == 0) written_vars_.insert(base);
  } else if (c.resolved.find("::") != std::string::npos) {
    c.receiver = ReceiverKind::Module;
  }
  // cudaMemset(x.data_ptr<float>(), ...): the call writes the storage of a tensor parameter.
  if (writes_first_argument(c.resolved) && !arg_nodes.empty() && current() >= 0) {
    const auto& params = facts_.functions[current()].params;
    const auto at = std::find(params.begin(), params.end(), storage_root(arg_nodes.front()));
    if (at != params.end()) {
      c.writes_param = true;
      c.param_index = static_cast<int>(at - params.begin());
    }
  }
  bool aten =
      c.resolved.rfind("at::", 0) == 0 || c.resolved.rfind("c10::", 0) == 0 || c.resolved.rfind("torch::", 0) == 0;
  // A local handed whole to a free function (`fill_into(out)`) is written when that function writes
  // its parameter, which cuda::link decides (Return::handed); anything else named is written.
  const bool free_function = !aten && current() >= 0 && (is(fn, "identifier") || is(fn, "qualified_identifier"));
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    TSNode a = arg_nodes[i];
    std::string at = str(a);
    const bool handed = free_function && is(a, "identifier");
    if (handed) mark_handed_carried(at, {c.resolved, i}, 0);
    if (is(a, "string_literal") && at.size() >= 2) c.string_args.push_back(at.substr(1, at.size() - 2));
    for (size_t p = 0; p < at.size();) {
      size_t q = p;
      while (q < at.size() && (std::isalnum(static_cast<unsigned char>(at[q])) || at[q] == '_')) ++q;
      if (q > p) {
        std::string w = at.substr(p, q - p);
        if ((w.rfind("cuda", 0) == 0 || w.rfind("CU", 0) == 0 || w.rfind("cudnn", 0) == 0 ||
             w.rfind("CUDNN", 0) == 0) &&
            std::find(c.keywords.begin(), c.keywords.end(), w) == c.keywords.end())
          c.keywords.push_back(w);
        if (!aten && !handed) written_vars_.insert(w);
        p = q;
      } else {
        ++p;
      }
    }
    if (auto dt = dtype_in(at); dt && c.resolved == "at::Tensor::to") add_cast(*dt, "method", n);
  }
  // Python bindings: m.def("name", &fn) / TORCH_LIBRARY m.impl("name", fn) export `fn` as `name`.
  if ((c.method == "def" || c.method == "impl") && arg_nodes.size() >= 2 && is(arg_nodes[0], "string_literal")) {
    TSNode target = arg_nodes[1];
    if (is(target, "pointer_expression")) target = field(target, "argument");
    if (is(target, "identifier") || is(target, "qualified_identifier"))
      c.keywords.push_back("@bind:" + canonical(str(target)));
  }
  // An ATen operator looked up by its schema name is a call of that operator.
  if (std::string op = dispatcher_operator(c.resolved, c.string_args); !op.empty()) {
    c.resolved = op;
    c.method = std::string(last_component(op));
    c.receiver = ReceiverKind::Module;
    c.keywords.push_back("@dispatcher");
  }
  if (auto dt = conversion_function_dtype(c.resolved)) {
    // __float2half(0.0f): a constant in the target type, not a conversion of computed values.
    const bool literal = !arg_nodes.empty() && std::all_of(arg_nodes.begin(), arg_nodes.end(), [&](TSNode a) {
      while (ts_node_named_child_count(a) == 1 &&
             (ts::type(a) == "unary_expression" || ts::type(a) == "parenthesized_expression"))
        a = ts_node_named_child(a, 0);
      return ts::type(a) == "number_literal";
    });
    add_cast(*dt, "function", n, literal);
  }
  if (c.resolved.rfind("at::Tensor::", 0) == 0)
    if (auto dt = conversion_method_dtype(c.method)) add_cast(*dt, "method", n);
  if (tensor_arithmetic(c.resolved)) c.scalar_operands = scalar_operands(fn, arg_nodes);
  for (const auto& k : c.keywords)
    if (k == "CUBLAS_TF32_TENSOR_OP_MATH" || k == "CUBLAS_COMPUTE_32F_FAST_TF32") add_cast("tf32", "flag", n);
  if (auto api = launch_api(c.resolved)) api_launch(n, *api, arg_nodes, g);
  c.function = current();
  c.module = module_;
  c.guard = g;
  c.span = span(n);
  facts_.calls.push_back(std::move(c));
  return false;
}

bool TsCollector::tensor_expression(TSNode e) const {
  while (!ts_node_is_null(e) && is(e, "parenthesized_expression") && ts_node_named_child_count(e) > 0)
    e = ts_node_named_child(e, 0);
  if (ts_node_is_null(e)) return false;
  if (is(e, "identifier")) {
    auto type = var_types_.find(str(e));
    return type != var_types_.end() && is_tensor_variable_type(type->second);
  }
  if (is(e, "call_expression")) {
    const std::string r = resolve(field(e, "function"));
    return r.rfind("at::", 0) == 0 && !aten_non_tensor_result(r);
  }
  if (is(e, "binary_expression")) return tensor_expression(field(e, "left")) || tensor_expression(field(e, "right"));
  return false;
}

void TsCollector::tensor_operator(TSNode n, const Guard& g) {
  if (current() < 0 || facts_.functions[current()].kind != FunctionKind::Host) return;
  const std::string op = str(field(n, "operator"));
  const bool compound = is(n, "assignment_expression");
  if (op.empty() || std::string_view("+-*/").find(op.front()) == std::string_view::npos ||
      op.size() != (compound ? 2u : 1u) || (compound && op.back() != '='))
    return;
  TSNode left = field(n, "left");
  TSNode right = field(n, "right");
  if (!tensor_expression(left) && !tensor_expression(right)) return;
  Call c;
  c.resolved = compound ? "at::Tensor::operator" + op : "at::operator" + op;
  c.method = "operator" + op;
  c.callee = squeeze(str(n)).substr(0, 80);
  c.receiver = ReceiverKind::None;
  c.scalar_operands = one_element(left) && one_element(right);
  c.function = current();
  c.module = module_;
  c.guard = g;
  c.span = span(n);
  facts_.calls.push_back(std::move(c));
}

// The target type of `static_cast<T>(x)` as written ("float"); nullopt for any other expression.
std::optional<std::string> TsCollector::static_cast_type(TSNode e) const {
  TSNode fn = field(e, "function");
  if (!is(e, "call_expression") || !is(fn, "template_function") || str(field(fn, "name")) != "static_cast")
    return std::nullopt;
  const std::string t = squeeze(str(field(fn, "arguments")));  // "<float>"
  if (t.size() <= 2) return std::nullopt;
  return t.substr(1, t.size() - 2);
}

bool TsCollector::one_element(TSNode e) const {
  while (!ts_node_is_null(e) && (is(e, "parenthesized_expression") || is(e, "unary_expression")) &&
         ts_node_named_child_count(e) > 0)
    e = ts_node_named_child(e, ts_node_named_child_count(e) - 1);
  if (ts_node_is_null(e)) return false;
  if (is(e, "number_literal")) return true;
  // A number type (`float`, `int64_t`), never a tensor, a deduced type, a template or a pointer.
  const auto number_type = [](const std::string& t) {
    return !t.empty() && t.find("Tensor") == std::string::npos && t.find("auto") == std::string::npos &&
           t.find("Scalar") == std::string::npos && t.find('<') == std::string::npos &&
           t.find('*') == std::string::npos;
  };
  // `(float)n`, `static_cast<float>(n)`: a conversion to a number type is a number.
  if (is(e, "cast_expression")) return number_type(squeeze(str(field(e, "type"))));
  if (auto t = static_cast_type(e)) return number_type(*t);
  if (is(e, "identifier")) {
    if (one_element_.count(str(e))) return true;
    // A variable of a number type (`float scale`, `int64_t n`): never a full tensor.
    auto type = var_types_.find(str(e));
    return type != var_types_.end() && number_type(squeeze(type->second));
  }
  if (is(e, "call_expression")) {
    TSNode fn = field(e, "function");
    const std::vector<TSNode> arg_nodes = named_children(field(e, "arguments"));
    const std::string r = resolve(fn);
    if (r == "at::Tensor::item" || r == "at::scalar_tensor") return true;
    if (one_element_result(r, arg_nodes)) return true;
    return tensor_arithmetic(r) && scalar_operands(fn, arg_nodes);
  }
  return false;
}

bool TsCollector::one_element_result(const std::string& r, const std::vector<TSNode>& args) const {
  if (r == "at::zeros" || r == "at::ones" || r == "at::empty" || r == "at::full") {
    if (args.empty()) return false;
    // `{}` (0-d), `1`, `{1}`, `{1, 1}`: one element (every size is the literal 1; `{11}` is not).
    std::string sizes = squeeze(str(args.front()));
    if (sizes == "{}") return true;
    if (sizes.size() >= 2 && sizes.front() == '{' && sizes.back() == '}') sizes = sizes.substr(1, sizes.size() - 2);
    if (sizes.empty()) return false;
    for (size_t start = 0; start <= sizes.size();) {
      const size_t comma = std::min(sizes.find(',', start), sizes.size());
      if (sizes.substr(start, comma - start) != "1") return false;
      start = comma + 1;
    }
    return true;
  }
  static const std::set<std::string> kReductions = {"at::Tensor::sum",  "at::Tensor::mean", "at::Tensor::max",
                                                    "at::Tensor::min",  "at::Tensor::amax", "at::Tensor::amin",
                                                    "at::Tensor::norm", "at::scalar_tensor"};
  return args.empty() && kReductions.count(r) > 0;
}

bool TsCollector::scalar_operands(TSNode fn, const std::vector<TSNode>& args) const {
  std::vector<TSNode> operands = args;
  if (is(fn, "field_expression")) operands.insert(operands.begin(), field(fn, "argument"));
  return !operands.empty() && std::all_of(operands.begin(), operands.end(), [&](TSNode o) { return one_element(o); });
}

std::optional<std::string> TsCollector::dtype_in(const std::string& text) const {
  std::string s = squeeze(text);
  if (auto d = low_precision_dtype(canonical(s))) return d;
  return std::nullopt;
}

void TsCollector::tensor_core_type(TSNode n) {
  std::vector<TensorCorePrecision> found;
  if (is(n, "template_type")) {
    const std::string name = str(field(n, "name"));
    TSNode args = field(n, "arguments");
    if (last_component(name) != "fragment" || ts_node_named_child_count(args) < 5) return;
    const auto p = wmma_fragment_precision(squeeze(str(ts_node_named_child(args, 0))),
                                           canonical(squeeze(str(ts_node_named_child(args, 4)))));
    if (p) found.push_back(*p);
  } else {
    const std::string name = str(n);
    if (name.rfind("SM", 0) != 0) return;
    found = mma_atom_precision(name);
  }
  for (const auto& p : found)
    if (tensor_core_seen_.emplace(current(), p.dtype, p.via).second) add_cast(p.dtype, p.via, n);
}

// A value converted to a narrower floating type by the type itself, as Clang reads a constructor of
// that type: `cutlass::half_t(x)` (or through an alias, `ElementAcc(x)`), `static_cast<__half>(x)`,
// `(__nv_bfloat16)x`, `__half h = x;`. A literal is a constant in that type (set-up, as for
// __float2half(0.0f)); a value already of that type, or a call's result, is not converted here.
void TsCollector::type_conversion(TSNode n) {
  const auto literal = [](TSNode v) {
    while (!ts_node_is_null(v) && ts_node_named_child_count(v) == 1 &&
           (is(v, "unary_expression") || is(v, "parenthesized_expression") || is(v, "initializer_list")))
      v = ts_node_named_child(v, 0);
    return is(v, "number_literal");
  };
  const auto dtype_of = [&](const std::string& type) { return low_precision_dtype(canonical(squeeze(type))); };
  // A value already of a narrow type (a variable, or an element or member of one, declared so), or one
  // whose type the syntax cannot tell: an undeclared name, a dereference, a reinterpretation of memory.
  const auto narrow_or_unknown = [&](TSNode v) {
    while (!ts_node_is_null(v) &&
           (is(v, "parenthesized_expression") || is(v, "subscript_expression") || is(v, "field_expression")))
      v = is(v, "parenthesized_expression") ? ts_node_named_child(v, 0) : field(v, "argument");
    if (ts_node_is_null(v) || is(v, "pointer_expression") || str(v).find("reinterpret_cast") != std::string::npos)
      return true;
    if (!is(v, "identifier")) return false;
    auto known = var_types_.find(str(v));
    return known == var_types_.end() || dtype_of(known->second).has_value();
  };
  if (is(n, "cast_expression")) {
    if (auto dt = dtype_of(str(field(n, "type")))) add_cast(*dt, "type", n, literal(field(n, "value")));
    return;
  }
  if (is(n, "call_expression")) {
    TSNode fn = field(n, "function");
    const std::vector<TSNode> args = named_children(field(n, "arguments"));
    if (args.empty()) return;
    std::optional<std::string> dt;
    if (is(fn, "identifier") || is(fn, "qualified_identifier") || is(fn, "type_identifier")) {
      if (!macros_.count(str(fn))) dt = dtype_of(str(fn));
    } else if (auto t = static_cast_type(n)) {
      dt = dtype_of(*t);
    }
    // `bf16 (*rows)[N] = ...` parses as an assignment to a call: a declaration, not a conversion.
    TSNode up = ts::parent(n);
    while (is(up, "subscript_expression") || is(up, "parenthesized_expression")) up = ts::parent(up);
    const bool assigned = is(up, "assignment_expression") &&
                          ts_node_start_byte(field(up, "left")) <= ts_node_start_byte(n) &&
                          ts_node_end_byte(n) <= ts_node_end_byte(field(up, "left"));
    if (dt && !assigned && !std::all_of(args.begin(), args.end(), narrow_or_unknown))
      add_cast(*dt, "type", n, std::all_of(args.begin(), args.end(), literal));
    return;
  }
  // A declaration of a variable of the type, initialised from another value.
  const auto dt = dtype_of(str(field(n, "type")));
  if (!dt) return;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
    TSNode d = ts_node_named_child(n, i);
    if (!is(d, "init_declarator") || !is(field(d, "declarator"), "identifier")) continue;
    TSNode value = field(d, "value");
    while (is(value, "initializer_list") && ts_node_named_child_count(value) == 1)
      value = ts_node_named_child(value, 0);
    if (ts_node_is_null(value) || is(value, "initializer_list") || is(value, "call_expression") ||
        is(value, "cast_expression") || narrow_or_unknown(value))
      continue;
    add_cast(*dt, "type", d, literal(value));
  }
}

void TsCollector::add_cast(const std::string& dtype, const std::string& via, TSNode n, bool setup) {
  Cast c;
  c.to_dtype = dtype;
  c.via = via;
  c.setup = setup;
  c.function = current();
  c.module = module_;
  c.span = span(n);
  facts_.casts.push_back(std::move(c));
}

bool TsCollector::zero(TSNode e) const { return zero_text(squeeze(str(e))); }

bool TsCollector::zero_text(std::string s) const {
  if (auto m = macros_.find(s); m != macros_.end() && !m->second.function_like) s = m->second.body;
  if (s == "0" || s == "0u" || s == "(0)") return true;
  if (s.rfind("dim3(0", 0) == 0 || s.rfind("{0", 0) == 0 || s.rfind("dim3{0", 0) == 0) return true;
  return false;
}

void TsCollector::chevron(TSNode n, TSNode fn, TSNode cfg, TSNode args, const Guard& g) {
  walk(cfg, g, 0);
  Launch l;
  l.kind = LaunchKind::CudaChevron;
  TSNode name = is(fn, "template_function") ? field(fn, "name") : fn;
  l.kernel = canonical(str(name));
  if (ts_node_named_child_count(cfg) > 0) {
    l.grid = str(ts_node_named_child(cfg, 0));
    l.grid_empty =
        zero(ts_node_named_child(cfg, 0)) || (ts_node_named_child_count(cfg) > 1 && zero(ts_node_named_child(cfg, 1)));
  }
  std::string a = str(args);
  for (const auto& [v, t] : var_types_)
    if (mentions(a, v)) mark_written_carried(v, 0);
  finish_launch(l, n, g);
  for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) walk(ts_node_named_child(args, i), g, 0);
}

// `DISPATCH(2, 4)` where `#define DISPATCH(A, B) kern<A, B><<<grid, block, 0, stream>>>(x.data_ptr(), ...)`:
// each chevron launch in a function-like macro's body is a launch here, with the macro's parameters
// replaced by the invocation's arguments (Clang sees the expansion; tree-sitter only the invocation).
bool TsCollector::macro_launches(TSNode n, const std::string& name, TSNode args, const Guard& g) {
  auto it = macros_.find(name);
  if (it == macros_.end() || !it->second.function_like || it->second.body.find("<<<") == std::string::npos)
    return false;
  // The expansion, line continuations dropped.
  std::string body;
  for (char ch : substitute_params(it->second, args))
    if (ch != '\\') body += ch;
  bool found = false;
  for (size_t at = body.find("<<<"); at != std::string::npos; at = body.find("<<<", at + 3)) {
    // The kernel's name before `<<<`, past any template arguments.
    size_t end = at;
    while (end > 0 && std::isspace(static_cast<unsigned char>(body[end - 1]))) --end;
    if (end > 0 && body[end - 1] == '>') {
      int depth = 0;
      while (end > 0) {
        const char ch = body[--end];
        if (ch == '>') ++depth;
        if (ch == '<' && --depth == 0) break;
      }
    }
    size_t start = end;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(body[start - 1])) || body[start - 1] == '_' ||
                         body[start - 1] == ':'))
      --start;
    const std::string kernel = squeeze(body.substr(start, end - start));
    const size_t close = body.find(">>>", at);
    if (kernel.empty() || !is_ident(std::string(last_component(kernel))) || close == std::string::npos) continue;
    Launch l;
    l.kind = LaunchKind::CudaChevron;
    l.kernel = canonical(kernel);
    const std::string config = body.substr(at + 3, close - at - 3);
    int depth = 0;
    size_t comma = 0;
    for (; comma < config.size(); ++comma) {
      if (config[comma] == '(' || config[comma] == '{') ++depth;
      if (config[comma] == ')' || config[comma] == '}') --depth;
      if (config[comma] == ',' && depth == 0) break;
    }
    l.grid = squeeze(config.substr(0, comma));
    l.grid_empty = zero_text(l.grid);
    if (comma < config.size()) {
      const std::string rest = config.substr(comma + 1);
      l.grid_empty = l.grid_empty || zero_text(squeeze(rest.substr(0, rest.find(','))));
    }
    // What the expansion hands the kernel is written, as at a launch written out.
    const std::string handed = body.substr(close + 3);
    for (const auto& [v, t] : var_types_)
      if (mentions(handed, v)) mark_written_carried(v, 0);
    finish_launch(l, n, g);
    found = true;
  }
  if (found)
    for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) walk(ts_node_named_child(args, i), g, 0);
  return found;
}

// `auto flat = out.view({-1}); fill_into(flat);` hands `out` to fill_into as well.
void TsCollector::mark_handed_carried(const std::string& var, const std::pair<std::string, size_t>& to, int depth) {
  handed_vars_[var].insert(to);
  if (depth > 3) return;
  if (auto it = carried_.find(var); it != carried_.end())
    for (const auto& inner : it->second)
      if (auto t = var_types_.find(inner); t != var_types_.end() && t->second.find("Tensor") != std::string::npos)
        mark_handed_carried(inner, to, depth + 1);
}

// A launch writes what it is handed, and what the descriptors it is handed carry (ThunderKittens'
// global layouts, a params struct built from data_ptr()s), a few levels deep.
void TsCollector::mark_written_carried(const std::string& var, int depth) {
  written_vars_.insert(var);
  if (depth > 3) return;
  if (auto it = carried_.find(var); it != carried_.end())
    for (const auto& inner : it->second) mark_written_carried(inner, depth + 1);
}

void TsCollector::api_launch(TSNode n, const LaunchApi& api, const std::vector<TSNode>& args, const Guard& g) {
  Launch l;
  l.kind = LaunchKind::CudaApi;
  if (api.kernel_arg < static_cast<int>(args.size())) {
    std::string k = squeeze(str(args[api.kernel_arg]));
    while (!k.empty() && (k[0] == '&' || k[0] == '(')) {
      if (k[0] == '(') {
        auto close = k.find(')');
        k = close == std::string::npos ? k.substr(1) : k.substr(close + 1);
      } else {
        k = k.substr(1);
      }
    }
    l.kernel = canonical(k.substr(0, k.find('<')));
  }
  if (api.grid_arg >= 0 && api.grid_arg + api.grid_args <= static_cast<int>(args.size())) {
    for (int i = 0; i < api.grid_args; ++i) {
      if (i) l.grid += ", ";
      l.grid += str(args[api.grid_arg + i]);
      if (zero(args[api.grid_arg + i])) l.grid_empty = true;
    }
  }
  finish_launch(l, n, g);
}

void TsCollector::finish_launch(Launch& l, TSNode n, const Guard& g) {
  l.function = current();
  l.module = module_;
  l.guard = g;
  l.span = span(n);
  pending_kernels_.emplace_back(facts_.launches.size(), l.kernel);
  facts_.launches.push_back(std::move(l));
}

}  // namespace kgate::cuda::detail
