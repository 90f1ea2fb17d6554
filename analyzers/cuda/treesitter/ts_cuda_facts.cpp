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
#include <vector>

#include "analyzers/cuda/cuda_common.h"
#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/python/ts_node.h"

extern "C" const TSLanguage* tree_sitter_cuda(void);

namespace kgate::cuda {
namespace {

using ts::field;
using ts::is;

struct Macro {
  std::vector<std::string> params;
  std::string body;
  bool function_like = false;
};

std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

bool is_ident(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; });
}

// Names that the cuBLAS headers define as macros of their _v2 entry points.
std::string cublas_v2(const std::string& n) {
  static const std::set<std::string> v2 = {"cublasCreate",    "cublasDestroy",        "cublasSetStream",
                                           "cublasGetStream", "cublasSgemm",          "cublasDgemm",
                                           "cublasSgemv",     "cublasSaxpy",          "cublasSdot",
                                           "cublasSscal",     "cublasSetPointerMode", "cublasSetWorkspace"};
  return v2.count(n) ? n + "_v2" : n;
}

class TsCollector {
 public:
  TsCollector(const SourceFile& host, FactSet& facts, int module)
      : host_(host), facts_(facts), module_(module), mod_(facts.modules[module]), text_(mod_.text) {}

  void run() {
    ts::ParserPtr parser(ts_parser_new());
    ts_parser_set_language(parser.get(), tree_sitter_cuda());
    ts::TreePtr tree(ts::parse_within_budget(parser.get(), text_));
    if (!tree || budget_exhausted()) return;  // a limit was hit: the pipeline reports it
    TSNode root = ts_tree_root_node(tree.get());
    collect_preamble(root, 0);
    walk(root, Guard{}, 0);
    for (auto& [li, name] : pending_kernels_) {
      for (size_t i = first_function_; i < facts_.functions.size(); ++i)
        if (facts_.functions[i].name == name || facts_.functions[i].qualname == name) {
          facts_.launches[li].kernel_function = static_cast<int>(i);
          break;
        }
    }
  }

 private:
  const SourceFile& host_;
  FactSet& facts_;
  int module_;
  const Module& mod_;
  std::string_view text_;
  std::map<std::string, Macro> macros_;
  std::map<std::string, std::string> namespace_alias_;
  std::map<std::string, std::string> using_decl_;  // matmul -> at::matmul
  std::set<std::string> using_namespaces_;
  std::vector<int> fn_stack_;
  size_t first_function_ = facts_.functions.size();
  std::vector<std::pair<size_t, std::string>> pending_kernels_;
  // Per function: variable -> type text or "tensor" when bound to an ATen call.
  std::map<std::string, std::string> var_types_;
  std::map<std::string, std::vector<std::string>> var_origins_;
  std::set<std::string> written_vars_;
  std::map<std::string, std::set<std::string>> carried_;  // descriptor variable -> variables its initialiser names
  std::vector<std::pair<TSNode, std::string>> returns_;
  std::set<uint64_t> skip_;  // macro invocations already folded into the call they name

  std::string str(TSNode n) const { return std::string(ts::text(n, text_)); }
  Span span(TSNode n) const { return host_span(host_, mod_, ts_node_start_byte(n), ts_node_end_byte(n)); }
  int current() const { return fn_stack_.empty() ? -1 : fn_stack_.back(); }

  // ---- macros, aliases, using (a first pass over the whole file) ----

  void collect_preamble(TSNode n, int depth) {
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
  std::string canonical(std::string q) const {
    q = squeeze(q);
    if (q.rfind("::", 0) == 0) q = q.substr(2);
    auto p = q.find("::");
    std::string head = p == std::string::npos ? q : q.substr(0, p);
    if (p != std::string::npos) {
      auto a = namespace_alias_.find(head);
      if (a != namespace_alias_.end()) q = a->second + q.substr(p);
    } else {
      if (auto u = using_decl_.find(q); u != using_decl_.end())
        q = u->second;
      else if (auto m = macros_.find(q); m != macros_.end() && !m->second.function_like && is_ident(m->second.body))
        q = m->second.body;
    }
    if (q.rfind("torch::", 0) == 0 && q.find("::", 7) == std::string::npos) q = "at::" + q.substr(7);
    if (q.find("::") == std::string::npos) q = cublas_v2(q);
    return q;
  }

  // `MK(Create, WithFlags)` with `#define MK(a, b) cudaStream##a##b` -> "cudaStreamCreateWithFlags".
  std::optional<std::string> expand_pasting(const std::string& name, TSNode args) const {
    auto it = macros_.find(name);
    if (it == macros_.end() || !it->second.function_like || it->second.body.find("##") == std::string::npos)
      return std::nullopt;
    std::vector<std::string> values;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i)
      values.push_back(squeeze(str(ts_node_named_child(args, i))));
    std::string body = it->second.body;
    std::string out;
    size_t i = 0;
    while (i < body.size()) {
      if (std::isalpha(static_cast<unsigned char>(body[i])) || body[i] == '_') {
        size_t j = i;
        while (j < body.size() && (std::isalnum(static_cast<unsigned char>(body[j])) || body[j] == '_')) ++j;
        std::string word = body.substr(i, j - i);
        auto p = std::find(it->second.params.begin(), it->second.params.end(), word);
        out += p != it->second.params.end() && static_cast<size_t>(p - it->second.params.begin()) < values.size()
                   ? values[p - it->second.params.begin()]
                   : word;
        i = j;
      } else {
        out += body[i++];
      }
    }
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

  // ---- the walk ----

  std::optional<bool> fold(TSNode cond) const {
    std::string s = squeeze(str(cond));
    while (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = s.substr(1, s.size() - 2);
    if (auto m = macros_.find(s); m != macros_.end() && !m->second.function_like) s = m->second.body;
    if (s == "false" || s == "0" || s == "!1" || s == "!true") return false;
    if (s == "true" || s == "1" || s == "!0" || s == "!false") return true;
    if (s.rfind("false&&", 0) == 0 || s.rfind("0&&", 0) == 0) return false;
    return std::nullopt;
  }

  static bool returns_or_throws(TSNode s) {
    std::string_view t = ts::type(s);
    if (t == "return_statement" || t == "throw_statement") return true;
    if (t == "expression_statement" && ts_node_named_child_count(s) > 0 &&
        is(ts_node_named_child(s, 0), "throw_expression"))
      return true;
    return false;
  }

  void walk(TSNode n, Guard g, int depth) {
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
    if (t == "call_expression" && call(n, g)) return;  // a launch walks its own arguments
    if (t == "declaration") declaration(n);
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

  // ---- functions ----

  static TSNode function_name_node(TSNode declarator) {
    for (int d = 0; d < 16 && !ts_node_is_null(declarator); ++d) {
      std::string_view t = ts::type(declarator);
      if (t == "function_declarator") return field(declarator, "declarator");
      TSNode next = field(declarator, "declarator");
      if (ts_node_is_null(next)) return TSNode{};
      declarator = next;
    }
    return TSNode{};
  }

  static TSNode function_declarator(TSNode declarator) {
    for (int d = 0; d < 16 && !ts_node_is_null(declarator); ++d) {
      if (is(declarator, "function_declarator")) return declarator;
      declarator = field(declarator, "declarator");
    }
    return TSNode{};
  }

  void function(TSNode n, Guard g, int depth) {
    TSNode decl = field(n, "declarator");
    TSNode name_node = function_name_node(decl);
    TSNode body = field(n, "body");
    if (ts_node_is_null(name_node) || ts_node_is_null(body)) {
      for (uint32_t i = 0; i < ts_node_child_count(n); ++i) walk(ts_node_child(n, i), g, depth + 1);
      return;
    }
    Function f;
    f.qualname = canonical(str(name_node));
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
      TSNode pn = field(p, "declarator");
      while (!ts_node_is_null(pn) && !is(pn, "identifier")) {
        TSNode next = field(pn, "declarator");
        if (ts_node_is_null(next) && ts_node_named_child_count(pn) > 0) next = ts_node_named_child(pn, 0);
        pn = next;
      }
      std::string pname = str(pn);
      std::string ptext = str(p);
      f.params.push_back(pname);
      types[pname] = ptext;
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
    f.module = module_;
    f.parent = current();
    f.span = span(name_node);
    int idx = static_cast<int>(facts_.functions.size());
    facts_.functions.push_back(std::move(f));

    auto saved_types = std::move(var_types_);
    auto saved_origins = std::move(var_origins_);
    auto saved_written = std::move(written_vars_);
    auto saved_carried = std::move(carried_);
    auto saved_returns = std::move(returns_);
    var_types_ = types;
    carried_.clear();
    var_origins_.clear();
    written_vars_.clear();
    returns_.clear();
    fn_stack_.push_back(idx);
    walk(body, Guard{}, depth + 1);
    fn_stack_.pop_back();
    if (facts_.functions[idx].kind == FunctionKind::CudaGlobal && !kernel_writes(body, pointer_params))
      facts_.functions[idx].decorators.push_back("no-pointer-write");
    std::string head_type = squeeze(str(field(n, "type")));
    if (head_type.find("Tensor") != std::string::npos)
      for (const auto& [node, text] : returns_) add_return(node, idx);
    var_types_ = std::move(saved_types);
    var_origins_ = std::move(saved_origins);
    written_vars_ = std::move(saved_written);
    carried_ = std::move(saved_carried);
    returns_ = std::move(saved_returns);
    (void)g;
  }

  // Whether a kernel body assigns through, or hands to a call, any pointer parameter.
  // A by-value parameter of a class or template type may hold device pointers: ThunderKittens'
  // global layouts (`const __grid_constant__ globals g`, written with kittens::store(g.c, ...)), CuTe
  // tensors, structs of pointers. Only scalar types are known to carry none.
  bool carries_pointers(TSNode param) const {
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

  bool kernel_writes(TSNode body, std::vector<std::string> pointers) const {
    if (pointers.empty()) return false;
    // Locals initialised from a pointer parameter alias it.
    alias_locals(body, pointers, 0);
    return writes_in(body, pointers, 0);
  }

  void alias_locals(TSNode n, std::vector<std::string>& pointers, int depth) const {
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

  static bool mentions(const std::string& text, const std::string& name) {
    if (name.empty()) return false;
    size_t p = 0;
    while ((p = text.find(name, p)) != std::string::npos) {
      bool left = p == 0 || !(std::isalnum(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '_');
      size_t e = p + name.size();
      bool right = e >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_');
      if (left && right) return true;
      p = e;
    }
    return false;
  }

  std::string root_name(TSNode e) const {
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

  bool writes_in(TSNode n, const std::vector<std::string>& pointers, int depth) const {
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

  // ---- declarations, assignments, returns ----

  void declaration(TSNode n) {
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
      if (is(d, "init_declarator")) {
        TSNode value = field(d, "value");
        note_origin(var, value);
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

  void note_origin(const std::string& var, TSNode value) {
    if (ts_node_is_null(value)) return;
    if (is(value, "call_expression")) {
      std::string r = resolve(field(value, "function"));
      if (!r.empty()) var_origins_[var].push_back(r);
      if (r.rfind("at::", 0) == 0) var_types_[var] = "Tensor";
    } else if (is(value, "identifier")) {
      auto it = var_origins_.find(str(value));
      if (it != var_origins_.end()) var_origins_[var] = it->second;
    }
  }

  void assignment(TSNode n) {
    TSNode left = field(n, "left");
    if (is(left, "identifier")) {
      note_origin(str(left), field(n, "right"));
      for (auto& gs : facts_.globals)
        if (gs.name == str(left) && current() >= 0) gs.mutated_in_forward = true;
    }
  }

  void add_return(TSNode node, int fn) {
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
      for (const auto& gs : facts_.globals)
        if (gs.name == v) r.from_state = true;
    } else if (is(value, "call_expression")) {
      r.origins.push_back(resolve(field(value, "function")));
      std::string last(last_component(r.origins.back()));
      r.written = !(last.rfind("empty", 0) == 0 || last.rfind("zeros", 0) == 0 || last.rfind("ones", 0) == 0);
    }
    r.span = span(node);
    facts_.returns.push_back(std::move(r));
  }

  // ---- calls and launches ----

  std::string resolve(TSNode fn) const {
    if (ts_node_is_null(fn)) return {};
    std::string_view t = ts::type(fn);
    if (t == "template_function") return canonical(str(field(fn, "name")));
    if (t == "field_expression") {
      TSNode arg = field(fn, "argument");
      TSNode member = field(fn, "field");
      std::string m = is(member, "template_method") ? str(field(member, "name")) : str(member);
      std::string base = root_name(arg);
      auto it = var_types_.find(base);
      if (it != var_types_.end() && it->second.find("Tensor") != std::string::npos) return "at::Tensor::" + m;
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
  bool call(TSNode n, const Guard& g) {
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
    if (c.resolved.empty() || c.resolved == "__cudaPushCallConfiguration") return false;
    c.method = std::string(last_component(c.resolved));
    if (is(fn, "field_expression")) {
      std::string base = root_name(field(fn, "argument"));
      const auto& params = current() >= 0 ? facts_.functions[current()].params : std::vector<std::string>{};
      c.receiver =
          std::find(params.begin(), params.end(), base) != params.end() ? ReceiverKind::Param : ReceiverKind::Value;
      if (!c.method.empty() && c.method.back() == '_' && c.resolved.rfind("at::", 0) == 0) written_vars_.insert(base);
    } else if (c.resolved.find("::") != std::string::npos) {
      c.receiver = ReceiverKind::Module;
    }
    std::vector<TSNode> arg_nodes;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) arg_nodes.push_back(ts_node_named_child(args, i));
    bool aten =
        c.resolved.rfind("at::", 0) == 0 || c.resolved.rfind("c10::", 0) == 0 || c.resolved.rfind("torch::", 0) == 0;
    for (TSNode a : arg_nodes) {
      std::string at = str(a);
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
          if (!aten) written_vars_.insert(w);
          p = q;
        } else {
          ++p;
        }
      }
      if (auto dt = dtype_in(at); dt && c.resolved == "at::Tensor::to") add_cast(*dt, "method", n);
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

  std::optional<std::string> dtype_in(const std::string& text) const {
    std::string s = squeeze(text);
    if (auto d = low_precision_dtype(canonical(s))) return d;
    return std::nullopt;
  }

  void add_cast(const std::string& dtype, const std::string& via, TSNode n, bool setup = false) {
    Cast c;
    c.to_dtype = dtype;
    c.via = via;
    c.setup = setup;
    c.function = current();
    c.module = module_;
    c.span = span(n);
    facts_.casts.push_back(std::move(c));
  }

  bool zero(TSNode e) const {
    std::string s = squeeze(str(e));
    if (auto m = macros_.find(s); m != macros_.end() && !m->second.function_like) s = m->second.body;
    if (s == "0" || s == "0u" || s == "(0)") return true;
    if (s.rfind("dim3(0", 0) == 0 || s.rfind("{0", 0) == 0 || s.rfind("dim3{0", 0) == 0) return true;
    return false;
  }

  void chevron(TSNode n, TSNode fn, TSNode cfg, TSNode args, const Guard& g) {
    walk(cfg, g, 0);
    Launch l;
    l.kind = LaunchKind::CudaChevron;
    TSNode name = is(fn, "template_function") ? field(fn, "name") : fn;
    l.kernel = canonical(str(name));
    if (ts_node_named_child_count(cfg) > 0) {
      l.grid = str(ts_node_named_child(cfg, 0));
      l.grid_empty = zero(ts_node_named_child(cfg, 0)) ||
                     (ts_node_named_child_count(cfg) > 1 && zero(ts_node_named_child(cfg, 1)));
    }
    std::string a = str(args);
    for (const auto& [v, t] : var_types_)
      if (mentions(a, v)) mark_written_carried(v, 0);
    finish_launch(l, n, g);
    for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) walk(ts_node_named_child(args, i), g, 0);
  }

  // A launch writes what it is handed, and what the descriptors it is handed carry (ThunderKittens'
  // global layouts, a params struct built from data_ptr()s), a few levels deep.
  void mark_written_carried(const std::string& var, int depth) {
    written_vars_.insert(var);
    if (depth > 3) return;
    if (auto it = carried_.find(var); it != carried_.end())
      for (const auto& inner : it->second) mark_written_carried(inner, depth + 1);
  }

  void api_launch(TSNode n, const LaunchApi& api, const std::vector<TSNode>& args, const Guard& g) {
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

  void finish_launch(Launch& l, TSNode n, const Guard& g) {
    l.function = current();
    l.module = module_;
    l.guard = g;
    l.span = span(n);
    pending_kernels_.emplace_back(facts_.launches.size(), l.kernel);
    facts_.launches.push_back(std::move(l));
  }
};

}  // namespace

void extract_module_tree_sitter(const SourceFile& host, FactSet& facts, int module) {
  if (module < 0 || module >= static_cast<int>(facts.modules.size())) return;
  TsCollector collector(host, facts, module);
  collector.run();
}

}  // namespace kgate::cuda
