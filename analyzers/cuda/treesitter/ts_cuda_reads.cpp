// Tensor parameters of a host function whose data the body never reads ("param-unread:<i>"): a C++
// entry that takes `x` but uses only `x.size(0)` or `at::empty_like(x)` computes something that does
// not depend on x's values (the Python side hands inputs to it: InputParam, cuda::link).
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
  for (size_t at = body.find(param); at != std::string::npos; at = body.find(param, at + 1)) {
    const size_t end = at + param.size();
    if ((at > 0 && ident_char(body[at - 1])) || (end < body.size() && ident_char(body[end]))) continue;
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

// Whether one mention of a parameter (an identifier in the body) takes its data.
bool TsCollector::data_use(TSNode id) const {
  TSNode parent = ts_node_parent(id);
  // x.size(0), x.options(), x.is_cuda()
  if (is(parent, "field_expression") && ts_node_eq(field(parent, "argument"), id)) {
    TSNode member = field(parent, "field");
    const TSNode call = ts_node_parent(parent);
    return !(is(call, "call_expression") && ts_node_eq(field(call, "function"), parent) &&
             tensor_metadata_only_method(str(member)));
  }
  if (is(parent, "argument_list") && is(ts_node_parent(parent), "call_expression")) {
    const TSNode call = ts_node_parent(parent);
    const TSNode fn = field(call, "function");
    size_t index = 0;
    for (TSNode a : named_children(parent)) {
      if (ts_node_eq(a, id)) break;
      ++index;
    }
    if (index == 0 && like_maker(resolve(fn))) return false;  // at::empty_like(x)
    if (is(fn, "identifier") && is_macro_name(str(fn)) && macro_only_inspects(str(fn), index, 0)) return false;
  }
  return true;
}

// Indices of the parameters (among `params`, with their declared types) that are tensors whose data no
// use in `body` reads. A body the grammar could not parse whole reads everything.
std::vector<size_t> TsCollector::unread_tensor_params(TSNode body, const std::vector<std::string>& params,
                                                      const std::map<std::string, std::string>& types) const {
  std::vector<size_t> unread;
  if (ts_node_has_error(body)) return unread;
  for (size_t i = 0; i < params.size(); ++i) {
    auto type = types.find(params[i]);
    if (params[i].empty() || type == types.end() || !is_tensor_variable_type(type->second)) continue;
    bool read = false;
    ts::preorder(body, [&](TSNode n) {
      if (read) return false;
      if (is(n, "identifier") && str(n) == params[i]) read = data_use(n);
      return !read;
    });
    if (!read) unread.push_back(i);
  }
  return unread;
}

}  // namespace kgate::cuda::detail
