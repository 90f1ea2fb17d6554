// The tree-sitter-cuda engine: the syntactic fallback when Clang is absent or cannot parse.
//
// It sees what the text shows: functions and their CUDA qualifiers, `<<<>>>` and launch-API calls,
// calls with names resolved through namespace aliases, `using` and one level of macros (including
// `##` pasting, which it expands by hand), guards, casts, static state and returns. It cannot see
// types, overloads or templates, so names are resolved by spelling.
#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/cuda/cuda_common.h"
#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/cuda/treesitter/ts_collector.h"
#include "analyzers/treesitter/ts_node.h"

extern "C" const TSLanguage* tree_sitter_cuda(void);

namespace kgate::cuda {
namespace detail {

using ts::field;
using ts::is;

namespace {
// A declared type (the parameter's text before its name) that points to const: `const float* `,
// `float const * `; not `float* const ` (a const pointer to writable data) or a reference.
bool const_pointee(const std::string& type) {
  const auto star = type.rfind('*');
  if (star == std::string::npos) return false;
  const std::string_view pointee = std::string_view(type).substr(0, star);
  if (pointee.find('*') != std::string_view::npos) return false;  // `const float** p`: a writable pointer
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = pointee.find("const"); at != std::string_view::npos; at = pointee.find("const", at + 1))
    if ((at == 0 || !word(pointee[at - 1])) && (at + 5 == pointee.size() || !word(pointee[at + 5]))) return true;
  return false;
}
}  // namespace

void TsCollector::run() {
  ts::ParserPtr parser(ts_parser_new());
  ts_parser_set_language(parser.get(), tree_sitter_cuda());
  ts::TreePtr tree(ts::parse_within_budget(parser.get(), text_));
  if (!tree || budget_exhausted()) return;  // a limit was hit: the pipeline reports it
  TSNode root = ts_tree_root_node(tree.get());
  // -DNAME=VALUE from the build's flags, before the file's own #defines (which may redefine them).
  for (const std::string& d : command_line_defines(facts_, mod_)) {
    const auto eq = d.find('=');
    Macro m;
    m.body = eq == std::string::npos ? "1" : squeeze(d.substr(eq + 1));
    macros_[d.substr(0, eq)] = m;
  }
  collect_preamble(root, 0);
  collect_asm_labels();
  walk(root, Guard{}, 0);
  for (auto& [li, name] : pending_kernels_) {
    for (size_t i = first_function_; i < facts_.functions.size(); ++i)
      if (facts_.functions[i].name == name || facts_.functions[i].qualname == name) {
        facts_.launches[li].kernel_function = static_cast<int>(i);
        break;
      }
  }
}

void TsCollector::collect_preamble(TSNode n, int depth) {
  if (depth > 200) return;
  std::string_view t = ts::type(n);
  if (t == "preproc_def") {
    Macro m;
    m.body = squeeze(str(field(n, "value")));
    macros_[str(field(n, "name"))] = m;
  } else if (t == "preproc_function_def") {
    Macro m;
    m.function_like = true;
    TSNode ps = field(n, "parameters");
    for (uint32_t i = 0; i < ts_node_named_child_count(ps); ++i) m.params.push_back(str(ts_node_named_child(ps, i)));
    m.body = str(field(n, "value"));
    macros_[str(field(n, "name"))] = m;
  } else if (t == "namespace_alias_definition") {
    std::string name = str(field(n, "name"));
    std::string target;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (!ts_node_eq(c, field(n, "name"))) target = squeeze(str(c));
    }
    namespace_alias_[name] = target;
  } else if (t == "function_definition") {
    TSNode name = function_name_node(field(n, "declarator"));
    if (!ts_node_is_null(name)) defined_functions_.insert(std::string(last_component(squeeze(str(name)))));
  } else if (t == "alias_declaration") {
    type_alias_[str(field(n, "name"))] = squeeze(str(field(n, "type")));
  } else if (t == "type_definition") {
    TSNode declarator = field(n, "declarator");
    if (is(declarator, "type_identifier")) type_alias_[str(declarator)] = squeeze(str(field(n, "type")));
  } else if (t == "using_declaration") {
    std::string s = squeeze(str(n));  // "usingnamespaceat;" or "usingat::matmul;"
    if (s.rfind("usingnamespace", 0) == 0) {
      using_namespaces_.insert(s.substr(14, s.size() - 15));
    } else if (s.rfind("using", 0) == 0) {
      std::string q = s.substr(5, s.size() - 6);
      using_decl_[std::string(last_component(q))] = q;
    }
  }
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) collect_preamble(ts_node_child(n, i), depth + 1);
}

// Canonical spelling of a qualified name: aliases expanded, torch:: ops as at:: (as in Clang's shims).
std::string TsCollector::canonical(std::string q) const {
  q = squeeze(q);
  if (q.rfind("::", 0) == 0) q = q.substr(2);
  auto p = q.find("::");
  std::string head = p == std::string::npos ? q : q.substr(0, p);
  if (p != std::string::npos) {
    auto a = namespace_alias_.find(head);
    if (a != namespace_alias_.end()) q = a->second + q.substr(p);
  } else {
    // A type alias chain (`using Acc = Elem; using Elem = cutlass::half_t;`), a few steps deep.
    for (int step = 0; step < 8; ++step) {
      auto a = type_alias_.find(q);
      if (a == type_alias_.end() || a->second == q) break;
      q = a->second;
      if (q.rfind("::", 0) == 0) q = q.substr(2);
    }
    if (auto u = using_decl_.find(q); u != using_decl_.end())
      q = u->second;
    else if (auto m = macros_.find(q); m != macros_.end() && !m->second.function_like && is_ident(m->second.body))
      q = m->second.body;
  }
  if (q.rfind("torch::", 0) == 0 && q.find("::", 7) == std::string::npos) q = "at::" + q.substr(7);
  if (q.find("::") == std::string::npos) q = cublas_v2(q);
  return q;
}

// A function-like macro's body with each parameter (a whole word) replaced by the invocation's
// argument as written.
std::string TsCollector::substitute_params(const Macro& macro, TSNode args) const {
  std::vector<std::string> values;
  for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i)
    values.push_back(squeeze(str(ts_node_named_child(args, i))));
  const std::string& body = macro.body;
  std::string out;
  size_t i = 0;
  while (i < body.size()) {
    if (std::isalpha(static_cast<unsigned char>(body[i])) || body[i] == '_') {
      size_t j = i;
      while (j < body.size() && (std::isalnum(static_cast<unsigned char>(body[j])) || body[j] == '_')) ++j;
      std::string word = body.substr(i, j - i);
      auto p = std::find(macro.params.begin(), macro.params.end(), word);
      out += p != macro.params.end() && static_cast<size_t>(p - macro.params.begin()) < values.size()
                 ? values[p - macro.params.begin()]
                 : word;
      i = j;
    } else {
      out += body[i++];
    }
  }
  return out;
}

// `MK(Create, WithFlags)` with `#define MK(a, b) cudaStream##a##b` -> "cudaStreamCreateWithFlags".
std::optional<std::string> TsCollector::expand_pasting(const std::string& name, TSNode args) const {
  auto it = macros_.find(name);
  if (it == macros_.end() || !it->second.function_like || it->second.body.find("##") == std::string::npos)
    return std::nullopt;
  const std::string out = substitute_params(it->second, args);
  std::string pasted;
  for (size_t k = 0; k < out.size(); ++k) {
    if (out.compare(k, 2, "##") == 0) {
      while (!pasted.empty() && std::isspace(static_cast<unsigned char>(pasted.back()))) pasted.pop_back();
      k += 1;
      while (k + 1 < out.size() && std::isspace(static_cast<unsigned char>(out[k + 1]))) ++k;
      continue;
    }
    pasted += out[k];
  }
  std::string s = squeeze(pasted);
  auto paren = s.find('(');
  if (paren != std::string::npos) s = s.substr(0, paren);
  if (!is_ident(s)) return std::nullopt;
  return s;
}

std::optional<bool> TsCollector::fold(TSNode cond) const {
  std::string s = squeeze(str(cond));
  while (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = s.substr(1, s.size() - 2);
  if (auto m = macros_.find(s); m != macros_.end() && !m->second.function_like) s = m->second.body;
  if (s == "false" || s == "0" || s == "!1" || s == "!true") return false;
  if (s == "true" || s == "1" || s == "!0" || s == "!false") return true;
  if (s.rfind("false&&", 0) == 0 || s.rfind("0&&", 0) == 0) return false;
  return std::nullopt;
}

bool TsCollector::returns_or_throws(TSNode s) {
  std::string_view t = ts::type(s);
  if (t == "return_statement" || t == "throw_statement") return true;
  if (t == "expression_statement" && ts_node_named_child_count(s) > 0 &&
      is(ts_node_named_child(s, 0), "throw_expression"))
    return true;
  return false;
}

void TsCollector::walk(TSNode n, Guard g, int depth) {
  if (depth > 400 || ts_node_is_null(n)) return;
  std::string_view t = ts::type(n);
  if (t == "function_definition") {
    function(n, g, depth);
    return;
  }
  if (t == "if_statement") {
    TSNode cond = field(n, "condition");
    auto v = fold(cond);
    walk(cond, g, depth + 1);
    Guard then_g = g;
    Guard else_g = g;
    if (v && !*v) then_g.constant_false = true;
    if (v && *v) else_g.constant_false = true;
    std::string ctext = str(cond);
    for (const char* k : {".size(", ".numel(", ".dim(", ".sizes(", ".scalar_type(", ".dtype(", ".is_cuda("})
      if (ctext.find(k) != std::string::npos) then_g.shape_test = else_g.shape_test = true;
    walk(field(n, "consequence"), then_g, depth + 1);
    walk(field(n, "alternative"), else_g, depth + 1);
    return;
  }
  if (t == "while_statement" || t == "for_statement") {
    TSNode cond = field(n, "condition");
    Guard body_g = g;
    if (!ts_node_is_null(cond))
      if (auto v = fold(cond); v && !*v) body_g.constant_false = true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) walk(ts_node_named_child(n, i), body_g, depth + 1);
    return;
  }
  if (t == "compound_statement") {
    Guard cur = g;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      walk(c, cur, depth + 1);
      if (returns_or_throws(c)) cur.after_return = true;
    }
    return;
  }
  if (t == "try_statement") {
    Guard tg = g;
    tg.in_try = true;
    walk(field(n, "body"), tg, depth + 1);
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (is(c, "catch_clause")) {
        Guard cg = g;
        cg.in_except = true;
        walk(c, cg, depth + 1);
      }
    }
    return;
  }
  if (t == "call_expression") {
    if (call(n, g)) return;  // a launch walks its own arguments
    calls_through_global(n, field(n, "function"), g);
    // Library functions handed over as values: `apply(at::mm, a)`, `run(&at::matmul)`.
    TSNode args = field(n, "arguments");
    for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) function_value(ts_node_named_child(args, i), g);
  }
  if (t == "pointer_expression" && str(n).rfind('&', 0) == 0 && !is(ts::parent(n), "argument_list"))
    function_value(n, g);
  if (t == "binary_expression" || t == "assignment_expression") tensor_operator(n, g);
  if (t == "declaration") declaration(n);
  if (t == "declaration" || t == "cast_expression" || t == "call_expression") type_conversion(n);
  if (t == "template_type" || t == "type_identifier" || t == "identifier") tensor_core_type(n);
  if (t == "assignment_expression") assignment(n);
  if (t == "return_statement" && current() >= 0) returns_.push_back({n, str(n)});
  if (t == "string_literal" && ts_node_end_byte(n) - ts_node_start_byte(n) < 300) {
    std::string s = str(n);
    StringConst c;
    c.value = s.size() >= 2 ? s.substr(1, s.size() - 2) : s;
    c.function = current();
    c.span = span(n);
    facts_.strings.push_back(std::move(c));
  }
  if (t == "preproc_include") {
    Import im;
    std::string p = str(field(n, "path"));
    if (p.size() >= 2) p = p.substr(1, p.size() - 2);
    im.module = p;
    im.span = span(n);
    facts_.imports.push_back(std::move(im));
  }
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) walk(ts_node_child(n, i), g, depth + 1);
}

TSNode TsCollector::function_name_node(TSNode declarator) {
  for (int d = 0; d < 16 && !ts_node_is_null(declarator); ++d) {
    std::string_view t = ts::type(declarator);
    if (t == "function_declarator") return field(declarator, "declarator");
    TSNode next = field(declarator, "declarator");
    if (ts_node_is_null(next)) return TSNode{};
    declarator = next;
  }
  return TSNode{};
}

TSNode TsCollector::function_declarator(TSNode declarator) {
  for (int d = 0; d < 16 && !ts_node_is_null(declarator); ++d) {
    if (is(declarator, "function_declarator")) return declarator;
    declarator = field(declarator, "declarator");
  }
  return TSNode{};
}

void TsCollector::function(TSNode n, Guard g, int depth) {
  TSNode decl = field(n, "declarator");
  TSNode name_node = function_name_node(decl);
  TSNode body = field(n, "body");
  if (ts_node_is_null(name_node) || ts_node_is_null(body)) {
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i) walk(ts_node_child(n, i), g, depth + 1);
    return;
  }
  Function f;
  f.qualname = canonical(str(name_node));
  // `TORCH_LIBRARY_IMPL(ns, CUDA, m) { ... }` reads as a function of that name: spell it as the macro
  // defines it ("TORCH_LIBRARY_IMPL_init_ns_CUDA", as the Clang engine sees it through the shims).
  if (f.qualname == "TORCH_LIBRARY" || f.qualname == "TORCH_LIBRARY_FRAGMENT" || f.qualname == "TORCH_LIBRARY_IMPL") {
    TSNode params = field(function_declarator(decl), "parameters");
    std::string spelled = f.qualname + "_init";
    for (uint32_t i = 0; i + 1 < ts_node_named_child_count(params); ++i)
      spelled += "_" + squeeze(str(ts_node_named_child(params, i)));
    f.qualname = spelled;
  }
  f.name = std::string(last_component(f.qualname));
  std::string head(text_.substr(ts_node_start_byte(n), ts_node_start_byte(body) - ts_node_start_byte(n)));
  // The qualifier may sit on the line above (`template <...> __global__`), inside a macro, or
  // before the node (the grammar sometimes leaves it outside the definition).
  uint32_t before = ts_node_start_byte(n);
  std::string prefix(text_.substr(before >= 24 ? before - 24 : 0, before >= 24 ? 24 : before));
  std::string all = prefix + head;
  if (head.find("__global__") != std::string::npos || prefix.find("__global__") != std::string::npos)
    f.kind = FunctionKind::CudaGlobal;
  else if (all.find("__device__") != std::string::npos && all.find("__host__") == std::string::npos)
    f.kind = FunctionKind::CudaDevice;
  else
    f.kind = FunctionKind::Host;
  TSNode fdecl = function_declarator(decl);
  TSNode params = field(fdecl, "parameters");
  std::vector<std::string> pointer_params;
  std::map<std::string, std::string> types;
  for (uint32_t i = 0; i < ts_node_named_child_count(params); ++i) {
    TSNode p = ts_node_named_child(params, i);
    TSNode pn = declarator_identifier(field(p, "declarator"));
    std::string pname = str(pn);
    std::string ptext = str(p);
    f.params.push_back(pname);
    // The declared type without the name (`const torch::Tensor& x` -> `const torch::Tensor& `).
    types[pname] = ts_node_is_null(pn) ? ptext : ptext.substr(0, ts_node_start_byte(pn) - ts_node_start_byte(p));
    f.params_const.push_back(const_pointee(types[pname]));
    if (ptext.find('*') != std::string::npos || ptext.find('&') != std::string::npos ||
        ptext.find("Accessor") != std::string::npos || carries_pointers(p))
      pointer_params.push_back(pname);
  }
  if (f.kind == FunctionKind::Host)
    for (const auto& [pn, pt] : types)
      if (pt.find("Tensor") != std::string::npos) {
        f.decorators.push_back("tensor-entry");
        break;
      }
  // `extern "C" void solve(...) {...}` or a definition inside `extern "C" { ... }`.
  for (TSNode up = ts_node_parent(n); !ts_node_is_null(up) && f.kind == FunctionKind::Host; up = ts_node_parent(up)) {
    if (is(up, "linkage_specification")) {
      if (str(field(up, "value")) == "\"C\"") f.decorators.push_back("extern-c");
      break;
    }
    if (!is(up, "declaration_list") && !is(up, "template_declaration")) break;
  }
  f.module = module_;
  f.parent = current();
  f.span = span(name_node);
  int idx = static_cast<int>(facts_.functions.size());
  facts_.functions.push_back(std::move(f));

  auto saved_types = std::move(var_types_);
  auto saved_origins = std::move(var_origins_);
  auto saved_written = std::move(written_vars_);
  auto saved_handed = std::move(handed_vars_);
  auto saved_carried = std::move(carried_);
  auto saved_storage = std::move(storage_of_);
  auto saved_returns = std::move(returns_);
  auto saved_one_element = std::move(one_element_);
  var_types_ = types;
  one_element_.clear();
  carried_.clear();
  storage_of_.clear();
  var_origins_.clear();
  written_vars_.clear();
  handed_vars_.clear();
  returns_.clear();
  fn_stack_.push_back(idx);
  walk(body, Guard{}, depth + 1);
  fn_stack_.pop_back();
  if (facts_.functions[idx].kind == FunctionKind::CudaGlobal && !kernel_writes(body, pointer_params))
    facts_.functions[idx].decorators.push_back("no-pointer-write");
  if (facts_.functions[idx].kind == FunctionKind::Host)
    for (auto& d : param_read_decorators(body, facts_.functions[idx].params, types))
      facts_.functions[idx].decorators.push_back(std::move(d));
  std::string head_type = squeeze(str(field(n, "type")));
  if (head_type.find("Tensor") != std::string::npos)
    for (const auto& [node, text] : returns_) add_return(node, idx);
  var_types_ = std::move(saved_types);
  var_origins_ = std::move(saved_origins);
  written_vars_ = std::move(saved_written);
  handed_vars_ = std::move(saved_handed);
  carried_ = std::move(saved_carried);
  storage_of_ = std::move(saved_storage);
  returns_ = std::move(saved_returns);
  one_element_ = std::move(saved_one_element);
  (void)g;
}

// Whether a kernel body assigns through, or hands to a call, any pointer parameter.
// A by-value parameter of a class or template type may hold device pointers: ThunderKittens'
// global layouts (`const __grid_constant__ globals g`, written with kittens::store(g.c, ...)), CuTe
// tensors, structs of pointers. Only scalar types are known to carry none.
bool TsCollector::carries_pointers(TSNode param) const {
  static const std::set<std::string, std::less<>> scalars = {"int",
                                                             "unsigned",
                                                             "signed",
                                                             "long",
                                                             "short",
                                                             "char",
                                                             "float",
                                                             "double",
                                                             "bool",
                                                             "size_t",
                                                             "int8_t",
                                                             "int16_t",
                                                             "int32_t",
                                                             "int64_t",
                                                             "uint8_t",
                                                             "uint16_t",
                                                             "uint32_t",
                                                             "uint64_t",
                                                             "half",
                                                             "__half",
                                                             "__nv_bfloat16",
                                                             "__half2",
                                                             "__nv_bfloat162",
                                                             "float2",
                                                             "float3",
                                                             "float4",
                                                             "int2",
                                                             "int3",
                                                             "int4",
                                                             "uint2",
                                                             "uint3",
                                                             "uint4",
                                                             "dim3",
                                                             "const",
                                                             "volatile",
                                                             "__restrict__",
                                                             "__grid_constant__",
                                                             "unsigned int",
                                                             "long long",
                                                             "unsigned long",
                                                             "unsigned long long",
                                                             "ptrdiff_t",
                                                             "int64",
                                                             "uint",
                                                             "__nv_fp8_e4m3",
                                                             "__nv_fp8_e5m2"};
  TSNode type = field(param, "type");
  if (ts_node_is_null(type)) return false;
  const std::string t = squeeze(str(type));
  return !t.empty() && !scalars.count(t);
}

bool TsCollector::kernel_writes(TSNode body, std::vector<std::string> pointers) const {
  if (pointers.empty()) return false;
  // Locals initialised from a pointer parameter alias it.
  alias_locals(body, pointers, 0);
  return writes_in(body, pointers, 0);
}

void TsCollector::alias_locals(TSNode n, std::vector<std::string>& pointers, int depth) const {
  if (depth > 300) return;
  if (is(n, "init_declarator")) {
    std::string value = str(field(n, "value"));
    for (const auto& p : std::vector<std::string>(pointers))
      if (mentions(value, p)) {
        TSNode d = field(n, "declarator");
        while (!ts_node_is_null(d) && !is(d, "identifier")) d = field(d, "declarator");
        if (!ts_node_is_null(d)) pointers.push_back(str(d));
        break;
      }
  }
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
    alias_locals(ts_node_named_child(n, i), pointers, depth + 1);
}

bool TsCollector::mentions(const std::string& text, const std::string& name) {
  return !word_positions(text, name).empty();
}

std::string TsCollector::root_name(TSNode e) const {
  for (int d = 0; d < 32 && !ts_node_is_null(e); ++d) {
    std::string_view t = ts::type(e);
    if (t == "identifier") return str(e);
    if (t == "subscript_expression" || t == "field_expression")
      e = field(e, "argument");
    else if (t == "pointer_expression")
      e = field(e, "argument");
    else if (t == "parenthesized_expression" || t == "cast_expression")
      e = ts_node_named_child(e, ts_node_named_child_count(e) - 1);
    else if (t == "binary_expression")
      e = field(e, "left");
    else
      return {};
  }
  return {};
}

bool TsCollector::writes_in(TSNode n, const std::vector<std::string>& pointers, int depth) const {
  if (depth > 300 || ts_node_is_null(n)) return false;
  std::string_view t = ts::type(n);
  auto is_pointer = [&](const std::string& r) {
    return std::find(pointers.begin(), pointers.end(), r) != pointers.end();
  };
  if (t == "assignment_expression") {
    TSNode left = field(n, "left");
    if (!is(left, "identifier") && is_pointer(root_name(left))) return true;
  }
  if (t == "update_expression") {
    TSNode arg = field(n, "argument");
    if (!is(arg, "identifier") && is_pointer(root_name(arg))) return true;
  }
  if (t == "call_expression") {
    std::string fn = squeeze(str(field(n, "function")));
    bool readonly = fn.rfind("__ldg", 0) == 0 || fn.rfind("__ldcs", 0) == 0 || fn.rfind("__ldcg", 0) == 0;
    if (!readonly) {
      TSNode args = field(n, "arguments");
      for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
        std::string a = str(ts_node_named_child(args, i));
        for (const auto& p : pointers)
          if (mentions(a, p)) return true;
      }
    }
  }
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
    if (writes_in(ts_node_named_child(n, i), pointers, depth + 1)) return true;
  return false;
}

namespace {
// `float* make(int n);` declares a function; `at::Tensor (*g)(const at::Tensor&) = nullptr;` a variable.
bool is_function_declaration(TSNode d) {
  for (int depth = 0; depth < 16 && !ts_node_is_null(d); ++depth) {
    if (is(d, "function_declarator")) return !is(field(d, "declarator"), "parenthesized_declarator");
    if (is(d, "identifier")) return false;
    TSNode next = field(d, "declarator");
    if (ts_node_is_null(next) && ts_node_named_child_count(d) > 0) next = ts_node_named_child(d, 0);
    d = next;
  }
  return false;
}
}  // namespace

void TsCollector::declaration(TSNode n) {
  std::string type = str(field(n, "type"));
  bool is_static = str(n).find("static") != std::string::npos && str(n).find("static") < type.size() + 16;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
    TSNode d = ts_node_named_child(n, i);
    if (!is(d, "init_declarator") && !is(d, "identifier") && !is(d, "pointer_declarator")) continue;
    TSNode name = is(d, "init_declarator") ? field(d, "declarator") : d;
    bool pointer = is(name, "pointer_declarator");
    while (!ts_node_is_null(name) && !is(name, "identifier")) name = field(name, "declarator");
    std::string var = str(name);
    if (var.empty()) continue;
    var_types_[var] = type;
    if (current() < 0 && !is_function_declaration(d)) {
      const std::string init = is(d, "init_declarator") ? squeeze(str(field(d, "value"))) : std::string{};
      if (init.empty() || init == "nullptr" || init == "NULL" || init == "0" || init == "{}" || init == "{nullptr}")
        empty_globals_.insert(var);
      else
        empty_globals_.erase(var);
    }
    if (is(d, "init_declarator")) {
      TSNode value = field(d, "value");
      note_origin(var, value);
      note_callable_global(var, value);
      if (const std::string root = storage_root(value); !root.empty()) storage_of_[var] = root;
      // `tile_gl c{(bf16*)C.data_ptr(), ...}`: a descriptor that carries another variable's memory.
      if (!ts_node_is_null(value)) {
        const std::string text = str(value);
        for (const auto& [other, other_type] : var_types_)
          if (other != var && mentions(text, other)) carried_[var].insert(other);
      }
    }
    bool global = current() < 0 || is_static;
    bool is_const = str(n).find("const") != std::string::npos && str(n).find("const") < str(n).find(var);
    if (global && !is_const && !ts_node_is_null(name)) {
      std::string kind;
      if (type.find("Tensor") != std::string::npos)
        kind = "tensor";
      else if (pointer && type.find("char") == std::string::npos)
        kind = "pointer";
      if (!kind.empty()) {
        GlobalState gs;
        gs.name = var;
        gs.kind = kind;
        gs.module = module_;
        gs.span = span(name);
        facts_.globals.push_back(std::move(gs));
      }
    }
  }
}

void TsCollector::note_origin(const std::string& var, TSNode value) {
  if (ts_node_is_null(value)) return;
  one_element_.erase(var);
  if (one_element(value)) one_element_.insert(var);
  if (is(value, "call_expression")) {
    std::string r = resolve(field(value, "function"));
    if (!r.empty()) var_origins_[var].push_back(r);
    // `auto n = torch::zeros(...)` holds a tensor; `auto s = x.sizes()` and `auto o = x.options()` do not.
    if (r.rfind("at::", 0) == 0) {
      const auto other = aten_non_tensor_result(r);
      var_types_[var] = !other ? "Tensor" : other->empty() ? "scalar" : *other;
    }
  } else if (is(value, "identifier")) {
    auto it = var_origins_.find(str(value));
    if (it != var_origins_.end()) var_origins_[var] = it->second;
  }
}

void TsCollector::assignment(TSNode n) {
  TSNode left = field(n, "left");
  if (is(left, "identifier")) {
    // `out = y` gives `out` y's origin (only y's when it runs on every path); `out += y` writes `out`
    // and keeps its origin.
    if (str(field(n, "operator")) == "=") {
      if (on_every_path(n)) var_origins_.erase(str(left));
      note_origin(str(left), field(n, "right"));
      // `p = y.data_ptr<float>()`: p now points into y's storage, or into no tensor's; on some paths
      // only, it may still point where it did.
      const std::string root = storage_root(field(n, "right"));
      if (on_every_path(n) && root.empty())
        storage_of_.erase(str(left));
      else if (!root.empty() && (on_every_path(n) || !storage_of_.count(str(left))))
        storage_of_[str(left)] = root;
    } else if (tensor_expression(left))
      written_vars_.insert(str(left));
    for (auto& gs : facts_.globals)
      if (gs.name == str(left) && current() >= 0) gs.mutated_in_forward = true;
  }
}

bool TsCollector::on_every_path(TSNode n) const {
  for (TSNode p = ts::parent(n); !ts_node_is_null(p) && !is(p, "function_definition"); p = ts::parent(p)) {
    const std::string_view t = ts::type(p);
    if (t == "if_statement" || t == "switch_statement" || t == "for_statement" || t == "for_range_loop" ||
        t == "while_statement" || t == "do_statement" || t == "conditional_expression" || t == "try_statement" ||
        t == "lambda_expression")
      return false;
    if (t == "binary_expression") {
      const std::string op = str(field(p, "operator"));
      if (op == "&&" || op == "||") return false;
    }
  }
  return true;
}

void TsCollector::add_return(TSNode node, int fn) {
  TSNode value = ts_node_named_child_count(node) > 0 ? ts_node_named_child(node, 0) : TSNode{};
  if (ts_node_is_null(value)) return;
  Return r;
  r.function = fn;
  TSNode base = value;
  while (is(base, "call_expression") && is(field(base, "function"), "field_expression"))
    base = field(field(base, "function"), "argument");
  if (is(base, "identifier")) {
    std::string v = str(base);
    auto it = var_origins_.find(v);
    if (it != var_origins_.end()) r.origins = it->second;
    auto fn_params = facts_.functions[fn].params;
    r.returns_param = std::find(fn_params.begin(), fn_params.end(), v) != fn_params.end();
    r.written = written_vars_.count(v) > 0;
    if (auto h = handed_vars_.find(v); !r.written && h != handed_vars_.end())
      r.handed.assign(h->second.begin(), h->second.end());
    for (const auto& gs : facts_.globals)
      if (gs.name == v) r.from_state = true;
  } else if (is(value, "call_expression")) {
    // A call result returned directly. An ATen factory's is unwritten; so is a free function's:
    // whether `return make_output(x);` returns a written buffer is the callee's to say (cuda::link,
    // returns_through_helpers). A method's result (`empty_like(x).fill_(1)`) is written.
    r.origins.push_back(resolve(field(value, "function")));
    std::string last(last_component(r.origins.back()));
    const bool factory = last.rfind("empty", 0) == 0 || last.rfind("zeros", 0) == 0 || last.rfind("ones", 0) == 0;
    r.written = !factory && is(field(value, "function"), "field_expression");
  }
  r.span = span(node);
  facts_.returns.push_back(std::move(r));
}

}  // namespace detail

void extract_module_tree_sitter(const SourceFile& host, FactSet& facts, int module) {
  if (module < 0 || module >= static_cast<int>(facts.modules.size())) return;
  detail::TsCollector collector(host, facts, module);
  collector.run();
}

}  // namespace kgate::cuda
