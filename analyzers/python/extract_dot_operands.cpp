// Extractor, after pass 2: the operands of a tl.dot left at Triton's default precision. TF32 keeps 11
// significant bits, so it rounds fp32 operands, but an integer of at most 8 bits converted to fp32 is
// exact in it: a quantized GEMM that loads int8 data, converts it with .to(tl.float32) and calls tl.dot
// computes what the task's fp32 reference does. The operands are followed inside the kernel to the
// pointer parameter they are loaded from, and each launch of the kernel in the file to the entry
// parameter it hands there, whose element dtype the task declares (LeetGPU's get_solve_signature).
#include <algorithm>
#include <string>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

namespace {

bool narrow_integer(const std::string& dtype) { return dtype == "int8" || dtype == "uint8" || dtype == "bool"; }

int param_index(const Function& f, const std::string& name) {
  const auto it = std::find(f.params.begin(), f.params.end(), name);
  return it == f.params.end() ? -1 : static_cast<int>(it - f.params.begin());
}

}  // namespace

// The kernel parameter (by position) a pointer expression is rooted at: `a_ptr + offs`, a name bound
// to such a sum (its `+=` steps keep the root), tl.make_block_ptr(base=a_ptr, ...), tl.advance(p, ...).
// -1 when it is not one parameter.
int Extractor::pointer_param(TSNode p, int scope, int depth) {
  if (ts_node_is_null(p) || depth > kMaxEvalDepth) return -1;
  while (ts::is(p, "parenthesized_expression")) p = ts::named_child(p, 0);
  if (ts::is(p, "binary_operator")) {
    const std::string_view op = ts::text(ts::field(p, "operator"), src_);
    if (op != "+" && op != "-") return -1;
    const int left = pointer_param(ts::field(p, "left"), scope, depth + 1);
    return left >= 0 || op == "-" ? left : pointer_param(ts::field(p, "right"), scope, depth + 1);
  }
  if (ts::is(p, "call")) {
    const Value fn = eval(ts::field(p, "function"), scope, depth + 1);
    const TSNode args = ts::field(p, "arguments");
    if (fn.k != Value::K::Path) return -1;
    if (fn.path == "triton.language.make_block_ptr") {
      const TSNode base = keyword_arg(args, "base");
      return pointer_param(ts_node_is_null(base) ? positional_arg(args, 0) : base, scope, depth + 1);
    }
    if (fn.path == "triton.language.advance") return pointer_param(positional_arg(args, 0), scope, depth + 1);
    return -1;
  }
  if (!ts::is(p, "identifier")) return -1;
  const std::string name(ts::text(p, src_));
  const Found f = find_name(name, scope);
  if (f.k == Found::K::Param) {
    const int fi = scopes_[f.scope].function;
    return fi < 0 || fi != fn_of(scope) ? -1 : param_index(facts_.functions[fi], name);
  }
  if (f.k != Found::K::Binding || !f.bindings) return -1;
  int root = -1;
  for (const Binding& b : *f.bindings) {
    if (ts_node_is_null(b.expr)) {
      if (!ts_node_is_null(b.augmented)) continue;  // `a_ptrs += BLOCK_K * stride`: the same buffer
      return -1;
    }
    const int r = pointer_param(b.expr, b.scope, depth + 1);
    if (r < 0 || (root >= 0 && r != root)) return -1;
    root = r;
  }
  return root;
}

// Whether every value `e` may hold is a tl.load through a kernel pointer parameter, converted or not
// (.to(...)); the parameters are added to `params`.
bool Extractor::operand_loads(TSNode e, int scope, int depth, std::vector<int>& params) {
  if (ts_node_is_null(e) || depth > kMaxEvalDepth) return false;
  while (ts::is(e, "parenthesized_expression")) e = ts::named_child(e, 0);
  if (ts::is(e, "call")) {
    const TSNode fn = ts::field(e, "function");
    const TSNode args = ts::field(e, "arguments");
    if (ts::is(fn, "attribute") && ts::text(ts::field(fn, "attribute"), src_) == "to")
      return operand_loads(ts::field(fn, "object"), scope, depth + 1, params);
    const Value target = eval(fn, scope, depth + 1);
    if (target.k != Value::K::Path || target.path != "triton.language.load") return false;
    const TSNode pointer = keyword_arg(args, "pointer");
    const int p = pointer_param(ts_node_is_null(pointer) ? positional_arg(args, 0) : pointer, scope, depth + 1);
    if (p < 0) return false;
    params.push_back(p);
    return true;
  }
  if (!ts::is(e, "identifier")) return false;
  const Found f = find_name(std::string(ts::text(e, src_)), scope);
  if (f.k != Found::K::Binding || !f.bindings || f.bindings->empty()) return false;
  for (const Binding& b : *f.bindings)
    if (ts_node_is_null(b.expr) || !operand_loads(b.expr, b.scope, depth + 1, params)) return false;
  return true;
}

// Whether each launch of `kernel` in the file hands its parameter `param` an entry parameter (or a
// contiguous/view of one) whose task dtype is an integer of at most 8 bits. False when it has none.
bool Extractor::launches_hand_narrow(int kernel, int param) {
  if (kernel < 0 || param < 0 || harness_.param_dtypes.empty()) return false;
  const std::string& param_name = facts_.functions[kernel].params[static_cast<size_t>(param)];
  bool any = false;
  for (const TritonLaunchSite& site : triton_launch_sites_) {
    if (site.kernel != kernel) continue;
    any = true;
    TSNode arg = keyword_arg(site.args, param_name);
    if (ts_node_is_null(arg)) {
      for (TSNode a : ts::named_children(site.args))
        if (ts::is(a, "list_splat") || ts::is(a, "dictionary_splat")) return false;
      arg = positional_arg(site.args, static_cast<uint32_t>(param));
    }
    // x.contiguous(), x.view(-1): the same buffer.
    while (ts::is(arg, "call") && ts::is(ts::field(arg, "function"), "attribute")) {
      const std::string_view m = ts::text(ts::field(ts::field(arg, "function"), "attribute"), src_);
      if (m != "contiguous" && m != "view" && m != "reshape" && m != "flatten") break;
      arg = ts::field(ts::field(arg, "function"), "object");
    }
    if (!ts::is(arg, "identifier")) return false;
    const std::string name(ts::text(arg, src_));
    const Found f = find_name(name, site.scope);
    if (f.k != Found::K::Param) return false;
    const int fi = scopes_[f.scope].function;
    if (fi < 0 || std::find(facts_.entries.begin(), facts_.entries.end(), fi) == facts_.entries.end()) return false;
    const int at = param_index(facts_.functions[fi], name);
    if (at < 0 || static_cast<size_t>(at) >= harness_.param_dtypes.size() ||
        !narrow_integer(harness_.param_dtypes[static_cast<size_t>(at)]))
      return false;
  }
  return any;
}

bool Extractor::dot_operands_narrow(const DotDefault& d) {
  if (harness_.param_dtypes.empty()) return false;
  const TSNode args = ts::field(d.node, "arguments");
  const int kernel = fn_of(d.scope);
  if (kernel < 0 || facts_.functions[kernel].kind != FunctionKind::TritonJit) return false;
  for (const char* keyword : {"input", "other"}) {
    TSNode operand = keyword_arg(args, keyword);
    if (ts_node_is_null(operand)) operand = positional_arg(args, std::string_view(keyword) == "input" ? 0 : 1);
    std::vector<int> params;
    if (!operand_loads(operand, d.scope, 0, params)) return false;
    for (int p : params)
      if (!launches_hand_narrow(kernel, p)) return false;
  }
  return true;
}

}  // namespace kgate::python::detail
