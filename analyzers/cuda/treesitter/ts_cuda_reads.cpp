// Tensor and raw pointer parameters of a host function whose data the body never reads
// ("param-unread:<i>"): a C++ entry that takes `x` but uses only `x.size(0)` or `at::empty_like(x)`
// computes something that does not depend on x's values (the Python side hands inputs to it:
// InputParam, cuda::link); an `extern "C" solve` that never uses its output pointer writes nothing.
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/cuda/treesitter/ts_collector.h"

namespace kgate::cuda::detail {

using ts::field;
using ts::is;

namespace {

constexpr int kMaxMacroDepth = 4;

bool is_macro_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The argument of a call that `at` (an index into `text`, just past an identifier) is inside, by a
// textual scan: the callee's name and the argument's index, for `CHECK_CUDA(x)` in a macro body.
bool enclosing_call(std::string_view text, size_t start, size_t end, std::string& callee, size_t& arg) {
  int depth = 0;
  arg = 0;
  for (size_t i = start; i-- > 0;) {
    const char c = text[i];
    if (c == ')') ++depth;
    if (c == ',' && depth == 0) ++arg;
    if (c == '(' && depth-- == 0) {
      size_t j = i;
      while (j > 0 && std::isspace(static_cast<unsigned char>(text[j - 1]))) --j;
      size_t k = j;
      while (k > 0 && ident_char(text[k - 1])) --k;
      callee = std::string(text.substr(k, j - k));
      // Only when the argument is the name alone: `F(x)`, not `F(x + 1)`.
      size_t a = start;
      while (a > 0 && std::isspace(static_cast<unsigned char>(text[a - 1]))) --a;
      size_t b = end;
      while (b < text.size() && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
      return (text[a - 1] == '(' || text[a - 1] == ',') && b < text.size() && (text[b] == ')' || text[b] == ',');
    }
  }
  return false;
}

}  // namespace

// Whether a function-like macro of this file only inspects its argument `arg`: in its body the
// parameter is stringized (#x), asks for metadata (x.is_cuda()), or is handed whole to another such
// macro (CHECK_INPUT(x) -> CHECK_CUDA(x); CHECK_CONTIGUOUS(x)). A macro the file does not define (from
// a header) or any other use is a read.
bool TsCollector::macro_only_inspects(const std::string& name, size_t arg, int depth) const {
  auto it = macros_.find(name);
  if (depth > kMaxMacroDepth || it == macros_.end() || !it->second.function_like || arg >= it->second.params.size())
    return false;
  const std::string& param = it->second.params[arg];
  const std::string_view body = it->second.body;
  for (const size_t at : word_positions(body, param)) {
    const size_t end = at + param.size();
    if (at > 0 && body[at - 1] == '#') continue;  // #x, and x##y pasting (no value of x)
    if (end + 1 < body.size() && body[end] == '#' && body[end + 1] == '#') continue;
    size_t m = end;
    while (m < body.size() && std::isspace(static_cast<unsigned char>(body[m]))) ++m;
    if (m < body.size() && body[m] == '.') {
      size_t k = m + 1;
      while (k < body.size() && ident_char(body[k])) ++k;
      size_t p = k;
      while (p < body.size() && std::isspace(static_cast<unsigned char>(body[p]))) ++p;
      if (p < body.size() && body[p] == '(' && tensor_metadata_only_method(body.substr(m + 1, k - m - 1))) continue;
      return false;
    }
    std::string callee;
    size_t index = 0;
    if (enclosing_call(body, at, end, callee, index) && is_macro_name(callee) &&
        macro_only_inspects(callee, index, depth + 1))
      continue;
    return false;
  }
  return true;
}

namespace {

// The outermost call of a chain of side-effect-free methods on `id` (x.contiguous().view(-1)); `id`
// itself when the first use is no such call. A metadata method ends the chain (x.size(0) is a number,
// as in the Clang engine's pure_chain_root).
template <class Text>
TSNode pure_chain_top(TSNode id, const Text& str) {
  TSNode n = id;
  for (;;) {
    const TSNode access = ts_node_parent(n);
    if (!is(access, "field_expression") || !ts_node_eq(field(access, "argument"), n)) break;
    const TSNode call = ts_node_parent(access);
    if (!is(call, "call_expression") || !ts_node_eq(field(call, "function"), access)) break;
    const std::string member = str(field(access, "field"));
    const std::string method = member.substr(0, member.find('<'));
    if (tensor_metadata_only_method(method) || !pure_tensor_method(method)) break;
    n = call;
  }
  return n;
}

// Macros that test their first argument as a branch does (TORCH_CHECK expands to an if).
bool check_macro(std::string_view name) {
  return name == "TORCH_CHECK" || name == "TORCH_CHECK_VALUE" || name == "TORCH_INTERNAL_ASSERT" ||
         name == "AT_ASSERT" || name == "AT_ASSERTM" || name == "assert";
}

// Whether `top`, a value made from a parameter through side-effect-free methods, only picks a branch:
// through comparison, logical and arithmetic operators and parentheses it reaches the condition of an
// if, a while or a ?:, or the first argument of a check macro, as the Clang engine's scan_condition.
template <class Text>
bool steers_branch_only(TSNode top, const Text& str) {
  TSNode n = top;
  for (;;) {
    const TSNode p = ts_node_parent(n);
    if (is(p, "binary_expression") || is(p, "parenthesized_expression") ||
        (is(p, "unary_expression") && str(field(p, "operator")) != "&" && str(field(p, "operator")) != "*")) {
      n = p;
      continue;
    }
    if (is(p, "condition_clause")) {
      const TSNode stmt = ts_node_parent(p);
      return ts_node_eq(field(p, "value"), n) && (is(stmt, "if_statement") || is(stmt, "while_statement"));
    }
    if (is(p, "conditional_expression")) return ts_node_eq(field(p, "condition"), n);
    if (is(p, "argument_list") && is(ts_node_parent(p), "call_expression")) {
      const TSNode fn = field(ts_node_parent(p), "function");
      return is(fn, "identifier") && check_macro(str(fn)) && ts_node_eq(ts::named_child(p, 0), n);
    }
    return false;
  }
}

template <class Text>
bool is_void_cast(TSNode n, const Text& str) {
  return is(n, "cast_expression") && squeeze(str(field(n, "type"))) == "void";
}

}  // namespace

// Whether one mention of a parameter (an identifier in the body) takes its data. Handed whole to a
// function called by name (`helper(x)`, `ns::helper(x)`), it is a hand-over: read only if the callee
// reads its parameter (resolve_param_handovers, once every function of the file has its decorators).
// Bound to a local, as it is or through side-effect-free methods (`auto xc = x.contiguous();`), it is
// read where the local is; such a value thrown away (`x.sum();`, `(void)x.sum();`) is no read.
TsCollector::ParamUse TsCollector::data_use(TSNode id) const {
  TSNode parent = ts_node_parent(id);
  // The name a declaration declares (an alias's own declarator) is no use.
  if (ts_node_eq(field(parent, "declarator"), id)) return {false};
  // x.size(0), x.options(), x.is_cuda()
  if (is(parent, "field_expression") && ts_node_eq(field(parent, "argument"), id)) {
    TSNode member = field(parent, "field");
    const TSNode call = ts_node_parent(parent);
    if (is(call, "call_expression") && ts_node_eq(field(call, "function"), parent) &&
        tensor_metadata_only_method(str(member)))
      return {false};
  }
  const auto text = [this](TSNode n) { return str(n); };
  const TSNode top = pure_chain_top(id, text);
  const TSNode up = ts_node_parent(top);
  if (is(up, "init_declarator") && ts_node_eq(field(up, "value"), top)) {
    ParamUse alias{false};
    const TSNode name = declarator_identifier(field(up, "declarator"));
    alias.alias = ts_node_is_null(name) ? std::string() : str(name);
    alias.read = alias.alias.empty();
    return alias;
  }
  if (!ts_node_eq(top, id) &&
      (is(up, "expression_statement") || (is_void_cast(up, text) && is(ts_node_parent(up), "expression_statement"))))
    return {false};
  // if (x.abs().amax().item<float>() > 1e30f), TORCH_CHECK(x.isfinite().all().item<bool>(), ...); a raw
  // pointer tested for null (`if (out == nullptr) return;`, `if (!out)`) reads no data either.
  const auto type = var_types_.find(str(id));
  const bool raw_pointer = type != var_types_.end() && type->second.find('*') != std::string::npos;
  if ((!ts_node_eq(top, id) || raw_pointer) && steers_branch_only(top, text)) return {false};
  if (is(parent, "argument_list") && is(ts_node_parent(parent), "call_expression")) {
    const TSNode call = ts_node_parent(parent);
    const TSNode fn = field(call, "function");
    size_t index = 0;
    for (TSNode a : named_children(parent)) {
      if (ts_node_eq(a, id)) break;
      ++index;
    }
    if (index == 0 && like_maker(resolve(fn))) return {false};  // at::empty_like(x)
    if (is(fn, "identifier") && is_macro_name(str(fn))) return {!macro_only_inspects(str(fn), index, 0)};
    if ((is(fn, "identifier") || is(fn, "qualified_identifier")) && !macros_.count(str(fn)))
      return {false, str(fn), index};
  }
  return {true};
}

// The "param-unread:<i>" and "param-handed:<i>:<j>:<callee>" decorators of the tensor parameters (among
// `params`, with their declared types) whose data no use in `body` reads, nor any use of a local bound
// to it, and of its raw pointer parameters (a C-linkage entry such as LeetGPU's solve gets its device
// buffers in them). A body the grammar could not parse whole reads everything.
std::vector<std::string> TsCollector::param_read_decorators(TSNode body, const std::vector<std::string>& params,
                                                            const std::map<std::string, std::string>& types) const {
  std::vector<std::string> out;
  if (ts_node_has_error(body)) return out;
  for (size_t i = 0; i < params.size(); ++i) {
    auto type = types.find(params[i]);
    if (params[i].empty() || type == types.end()) continue;
    if (!is_tensor_variable_type(type->second) && type->second.find('*') == std::string::npos) continue;
    bool read = false;
    std::vector<std::string> handed;
    std::vector<std::string> names = {params[i]};  // the parameter and the locals bound to it
    for (size_t k = 0; k < names.size() && !read; ++k)
      ts::preorder(body, [&](TSNode n) {
        if (read) return false;
        if (is(n, "identifier") && str(n) == names[k]) {
          ParamUse use = data_use(n);
          read = use.read;
          if (!use.alias.empty() && std::find(names.begin(), names.end(), use.alias) == names.end())
            names.push_back(use.alias);
          std::string d = use.callee.empty() ? "" : param_handed_decorator(i, use.position, use.callee);
          if (!d.empty() && std::find(handed.begin(), handed.end(), d) == handed.end()) handed.push_back(std::move(d));
        }
        return !read;
      });
    if (read) continue;
    if (handed.empty()) out.push_back("param-unread:" + std::to_string(i));
    out.insert(out.end(), handed.begin(), handed.end());
  }
  return out;
}

}  // namespace kgate::cuda::detail
