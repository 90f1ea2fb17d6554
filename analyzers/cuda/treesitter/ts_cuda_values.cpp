// The tree-sitter-cuda engine, calls through values: the same reading as the Clang engine's
// (clang_collector_indirect.cpp) where syntax shows it. A library function named as a value inside a
// function is a call of it; a call through a variable of namespace scope is a call of each function
// its initializer names or its lambdas call, and unresolved when it starts empty. Declarations bound to
// a library symbol by an asm label, ATen operators looked up in c10::Dispatcher, and unqualified calls
// under `using namespace at` (directly or through a macro) are calls of the library function. Virtual
// dispatch and functors need types, which only the Clang engine has.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/cuda/treesitter/ts_collector.h"

namespace kgate::cuda::detail {

using ts::field;
using ts::is;

namespace {

// The namespaces and prefixes of library compute (cpp-library-call's list); other names as values
// (std::max handed to std::transform, a kernel handed to cudaLaunchKernel) are not calls of interest.
bool library_name(const std::string& n) {
  // Without types, a name is taken for a function by its spelling: types, enumerators and constants
  // (at::Tensor, at::kFloat, torch::kCUDA, CUBLAS_OP_N) are not.
  const std::string_view last = last_component(n);
  if (last.empty() || std::isupper(static_cast<unsigned char>(last.front())) ||
      (last.size() > 1 && last.front() == 'k' && std::isupper(static_cast<unsigned char>(last[1]))))
    return false;
  for (const char* p :
       {"at::", "torch::", "cublas", "cudnn", "cutlass::", "cub::", "thrust::", "cusparse", "cufft", "cusolver"})
    if (n.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

void TsCollector::names_in(TSNode n, std::vector<std::string>& out, int depth) const {
  if (ts_node_is_null(n) || depth > 64) return;
  const auto take = [&](TSNode name) {
    if (!is(name, "identifier") && !is(name, "qualified_identifier")) return false;
    const std::string canon = canonical(str(name));
    if (std::find(out.begin(), out.end(), canon) == out.end()) out.push_back(canon);
    return true;
  };
  const std::string_view t = ts::type(n);
  // Where a function is named: `&f`, an element of a braced table, the callee of a lambda's calls.
  // Types in declarations and parameters (`const at::Tensor& t`) are not.
  if (t == "pointer_expression" && str(n).rfind('&', 0) == 0) {
    take(field(n, "argument"));
    return;
  }
  if (t == "lambda_expression") {
    names_in(field(n, "body"), out, depth + 1);
    return;
  }
  if (t == "call_expression") {
    take(field(n, "function"));
    names_in(field(n, "arguments"), out, depth + 1);
    return;
  }
  if (t == "initializer_list") {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
      if (!take(ts_node_named_child(n, i))) names_in(ts_node_named_child(n, i), out, depth + 1);
    return;
  }
  if (t == "parameter_list" || t == "parameter_declaration" || t == "type_descriptor") return;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) names_in(ts_node_named_child(n, i), out, depth + 1);
}

void TsCollector::function_value(TSNode n, const Guard& g) {
  if (current() < 0) return;
  TSNode target = n;
  if (is(n, "pointer_expression")) target = field(n, "argument");
  if (!is(target, "qualified_identifier") && !is(target, "identifier")) return;
  // A variable or parameter (a handle named cublas_handle) is not a function.
  if (is(target, "identifier")) {
    const std::string plain = str(target);
    const auto& params = facts_.functions[current()].params;
    if (var_types_.count(plain) || std::find(params.begin(), params.end(), plain) != params.end()) return;
  }
  const std::string name = canonical(str(target));
  if (!library_name(name)) return;
  Call c;
  c.callee = squeeze(str(n));
  c.resolved = name;
  c.method = std::string(last_component(name));
  c.receiver = ReceiverKind::Module;
  c.keywords.push_back("@as-value");
  c.function = current();
  c.module = module_;
  c.guard = g;
  c.span = span(n);
  facts_.calls.push_back(std::move(c));
}

void TsCollector::note_callable_global(const std::string& var, TSNode value) {
  if (current() >= 0 || ts_node_is_null(value)) return;
  std::vector<std::string> names;
  names_in(value, names, 0);
  std::vector<std::string> functions;
  for (const std::string& n : names)
    if (library_name(n) || std::any_of(facts_.functions.begin() + static_cast<long>(first_function_),
                                       facts_.functions.end(), [&](const Function& f) { return f.name == n; }))
      functions.push_back(n);
  if (!functions.empty()) callable_globals_[var] = std::move(functions);
}

void TsCollector::calls_through_global(TSNode n, TSNode fn, const Guard& g) {
  if (current() < 0 || (callable_globals_.empty() && empty_globals_.empty())) return;
  TSNode root = fn;
  bool through_member = false;
  for (int d = 0; d < 8 && !ts_node_is_null(root); ++d) {
    if (is(root, "subscript_expression")) {
      root = field(root, "argument");
    } else if (is(root, "field_expression")) {
      root = field(root, "argument");
      through_member = true;
    } else if (is(root, "parenthesized_expression") || is(root, "pointer_expression")) {
      root = ts_node_named_child(root, ts_node_named_child_count(root) - 1);
    } else {
      break;
    }
  }
  if (!is(root, "identifier")) return;
  auto held = callable_globals_.find(str(root));
  if (held == callable_globals_.end()) {
    // `g_gemm(a, b)` or `table[i](a, b)` through a variable that starts empty and is filled at run
    // time (a method called on an object, `obj->run()`, is not a call through the variable).
    const std::string var = str(root);
    if (through_member || !empty_globals_.count(var) || var_types_.count(var) > 0) return;  // a local shadows it
    Call c;
    c.callee = squeeze(str(fn));
    c.resolved = var;
    c.method = var;
    c.receiver = ReceiverKind::Value;
    c.unresolved_dynamic = true;
    c.keywords.push_back("@via:" + var);
    c.function = current();
    c.module = module_;
    c.guard = g;
    c.span = span(n);
    facts_.calls.push_back(std::move(c));
    return;
  }
  for (const std::string& name : held->second) {
    Call c;
    c.callee = squeeze(str(fn));
    c.resolved = name;
    c.method = std::string(last_component(name));
    c.receiver = ReceiverKind::Value;
    c.keywords.push_back("@via:" + held->first);
    c.function = current();
    c.module = module_;
    c.guard = g;
    c.span = span(n);
    facts_.calls.push_back(std::move(c));
  }
}

void TsCollector::collect_asm_labels() {
  // `<name>(<parameters>) __asm__("<symbol>");` or `asm(...)`, at namespace scope.
  const std::string text(text_);
  for (const char* keyword : {"__asm__", "asm"}) {
    for (size_t at = text.find(keyword); at != std::string::npos; at = text.find(keyword, at + 1)) {
      const size_t end = at + std::string_view(keyword).size();
      if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
      size_t open = text.find_first_not_of(" \t", end);
      if (open == std::string::npos || text[open] != '(') continue;
      const size_t quote = text.find_first_not_of(" \t", open + 1);
      if (quote == std::string::npos || text[quote] != '"') continue;
      const size_t close_quote = text.find('"', quote + 1);
      if (close_quote == std::string::npos) continue;
      // Back from the keyword over the parameter list to the declared name.
      size_t p = text.find_last_not_of(" \t\n", at == 0 ? 0 : at - 1);
      if (p == std::string::npos || text[p] != ')') continue;
      int depth = 0;
      bool opened = false;
      for (; p > 0; --p) {
        if (text[p] == ')') ++depth;
        if (text[p] == '(' && --depth == 0) {
          opened = true;
          break;
        }
      }
      if (!opened) continue;
      size_t name_end = text.find_last_not_of(" \t", p - 1);
      if (name_end == std::string::npos) continue;
      size_t name_begin = name_end;
      while (name_begin > 0 &&
             (std::isalnum(static_cast<unsigned char>(text[name_begin - 1])) || text[name_begin - 1] == '_'))
        --name_begin;
      const std::string name = text.substr(name_begin, name_end + 1 - name_begin);
      if (name.empty() || defined_functions_.count(name)) continue;
      asm_labels_[name] = asm_label_function(text.substr(quote + 1, close_quote - quote - 1));
    }
  }
}

std::string TsCollector::through_using_namespace(const std::string& name, const std::vector<TSNode>& args) const {
  if (name.empty() || name.find("::") != std::string::npos || defined_functions_.count(name) || macros_.count(name) ||
      var_types_.count(name))
    return {};
  std::string ns;
  for (const char* candidate : {"at", "torch", "at::native"})
    if (using_namespaces_.count(candidate)) ns = candidate == std::string("torch") ? "at" : candidate;
  if (ns.empty()) return {};
  for (TSNode a : args)
    if (tensor_expression(a)) return ns + "::" + name;
  return {};
}

std::optional<std::string> TsCollector::macro_callee(const std::string& macro) const {
  auto it = macros_.find(macro);
  if (it == macros_.end() || !it->second.function_like) return std::nullopt;
  const std::string body = squeeze(it->second.body);
  const size_t open = body.find('(');
  if (open == std::string::npos || open == 0 || body.back() != ')' || body.find("##") != std::string::npos)
    return std::nullopt;
  std::string callee = body.substr(0, open);
  if (!is_ident(callee)) return std::nullopt;
  // One call: its argument list closes at the end of the body.
  int depth = 0;
  for (size_t i = open; i < body.size(); ++i) {
    if (body[i] == '(') ++depth;
    if (body[i] == ')' && --depth == 0 && i + 1 != body.size()) return std::nullopt;
  }
  return callee;
}

}  // namespace kgate::cuda::detail
