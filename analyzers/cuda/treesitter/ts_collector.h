// Private to analyzers/cuda/treesitter: the tree-sitter-cuda engine's collector. ts_cuda_facts.cpp holds
// the preamble pass, the walk and functions; ts_cuda_calls.cpp the calls, casts and launches.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/cuda/cuda_common.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::cuda::detail {

struct Macro {
  std::vector<std::string> params;
  std::string body;
  bool function_like = false;
};

inline std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

inline bool is_ident(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; });
}

// Where `name` stands in `text` as a whole word (not inside a longer identifier).
inline std::vector<size_t> word_positions(std::string_view text, std::string_view name) {
  std::vector<size_t> out;
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (name.empty()) return out;
  for (size_t p = text.find(name); p != std::string_view::npos; p = text.find(name, p + name.size())) {
    const size_t e = p + name.size();
    if ((p == 0 || !ident(text[p - 1])) && (e >= text.size() || !ident(text[e]))) out.push_back(p);
  }
  return out;
}

// The identifier a declarator declares (`x` of `const torch::Tensor& x`, `p` of `float* p`): down
// its declarator fields, or its first named child where it has none; a null node when there is none.
inline TSNode declarator_identifier(TSNode d) {
  while (!ts_node_is_null(d) && !ts::is(d, "identifier")) {
    TSNode next = ts::field(d, "declarator");
    if (ts_node_is_null(next) && ts_node_named_child_count(d) > 0) next = ts_node_named_child(d, 0);
    d = next;
  }
  return d;
}

// A node's named children (a call's arguments).
inline std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) out.push_back(ts_node_named_child(n, i));
  return out;
}

// Names that the cuBLAS headers define as macros of their _v2 entry points.
inline std::string cublas_v2(const std::string& n) {
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

  void run();

 private:
  const SourceFile& host_;
  FactSet& facts_;
  int module_;
  const Module& mod_;
  std::string_view text_;
  std::map<std::string, Macro> macros_;
  std::map<std::string, std::string> namespace_alias_;
  std::map<std::string, std::string> using_decl_;  // matmul -> at::matmul
  // `using ElementAcc = cutlass::half_t;`, `typedef __half T;`: the aliased type as written.
  std::map<std::string, std::string> type_alias_;
  std::set<std::string> using_namespaces_;
  std::vector<int> fn_stack_;
  size_t first_function_ = facts_.functions.size();
  std::vector<std::pair<size_t, std::string>> pending_kernels_;
  // Per function: variable -> type text or "tensor" when bound to an ATen call.
  std::map<std::string, std::string> var_types_;
  std::map<std::string, std::vector<std::string>> var_origins_;
  std::set<std::string> written_vars_;
  // Locals handed whole to a free function, with (callee, position): Return::handed.
  std::map<std::string, std::set<std::pair<std::string, size_t>>> handed_vars_;
  std::set<std::string> one_element_;                     // tensors of one element (`torch::zeros({1})`, `x.sum()`)
  std::map<std::string, std::set<std::string>> carried_;  // descriptor variable -> variables its initialiser names
  // Pointer locals bound to a tensor's storage (`float* p = x.data_ptr<float>();`) -> the tensor's name.
  std::map<std::string, std::string> storage_of_;
  std::vector<std::pair<TSNode, std::string>> returns_;
  std::set<uint64_t> skip_;  // macro invocations already folded into the call they name
  // Variables of namespace scope whose initializer names functions (a table of function pointers, a
  // std::function holding a lambda): a call through one is a call of each (ts_cuda_values.cpp).
  std::map<std::string, std::vector<std::string>> callable_globals_;
  // Variables of namespace scope that start empty (`static Gemm g = nullptr;`, no initializer): a call
  // through one is unresolved (its callable is set at run time).
  std::set<std::string> empty_globals_;
  // Functions this file defines, and declarations bound to another symbol by an asm label
  // (`at::Tensor f(...) __asm__("_ZN2at6matmul...")` -> f: at::matmul).
  std::set<std::string> defined_functions_;
  std::map<std::string, std::string> asm_labels_;

  std::string str(TSNode n) const { return std::string(ts::text(n, text_)); }
  Span span(TSNode n) const { return mod_.host_span(host_, ts_node_start_byte(n), ts_node_end_byte(n)); }
  int current() const { return fn_stack_.empty() ? -1 : fn_stack_.back(); }

  // ---- macros, aliases, using (a first pass over the whole file) ----
  void collect_preamble(TSNode n, int depth);
  // Canonical spelling of a qualified name: aliases expanded, torch:: ops as at:: (as in Clang's shims).
  std::string canonical(std::string q) const;
  // `MK(Create, WithFlags)` with `#define MK(a, b) cudaStream##a##b` -> "cudaStreamCreateWithFlags".
  std::optional<std::string> expand_pasting(const std::string& name, TSNode args) const;

  // ---- the walk ----
  std::optional<bool> fold(TSNode cond) const;
  static bool returns_or_throws(TSNode s);
  void walk(TSNode n, Guard g, int depth);

  // ---- functions ----
  static TSNode function_name_node(TSNode declarator);
  static TSNode function_declarator(TSNode declarator);
  void function(TSNode n, Guard g, int depth);
  // Whether a kernel body assigns through, or hands to a call, any pointer parameter.
  // A by-value parameter of a class or template type may hold device pointers: ThunderKittens'
  // global layouts (`const __grid_constant__ globals g`, written with kittens::store(g.c, ...)), CuTe
  // tensors, structs of pointers. Only scalar types are known to carry none.
  bool carries_pointers(TSNode param) const;
  bool kernel_writes(TSNode body, std::vector<std::string> pointers) const;
  void alias_locals(TSNode n, std::vector<std::string>& pointers, int depth) const;
  static bool mentions(const std::string& text, const std::string& name);
  std::string root_name(TSNode e) const;
  std::string storage_root(TSNode e) const;
  bool writes_in(TSNode n, const std::vector<std::string>& pointers, int depth) const;
  // Tensor parameters whose data the body never reads (ts_cuda_reads.cpp): "param-unread:<i>", or
  // "param-handed:<i>:<j>:<callee>" when the body only hands it whole to functions by name (the
  // decorators of cuda_facts.h; resolve_param_handovers decides).
  std::vector<std::string> param_read_decorators(TSNode body, const std::vector<std::string>& params,
                                                 const std::map<std::string, std::string>& types) const;
  // One mention of a parameter: whether it takes its data; a whole argument of a call by name is a
  // hand-over instead (callee and position set, not a read here), a local's initialiser an alias.
  struct ParamUse {
    bool read = true;
    std::string callee;
    size_t position = 0;
    std::string alias;  // a local bound to it (auto xc = x.contiguous()): read where the local is
  };
  ParamUse data_use(TSNode id) const;
  bool macro_only_inspects(const std::string& name, size_t arg, int depth) const;

  // ---- declarations, assignments, returns ----
  void declaration(TSNode n);
  void note_origin(const std::string& var, TSNode value);
  // Whether `n` runs on every path through its function (no branch, loop, conditional, short circuit,
  // try or lambda around it).
  bool on_every_path(TSNode n) const;
  void assignment(TSNode n);
  void add_return(TSNode node, int fn);

  // ---- calls through values (ts_cuda_values.cpp) ----
  // A library function named as a value in a function (`&at::matmul`, `apply(at::mm, a)`): a call of it.
  void function_value(TSNode n, const Guard& g);
  // The functions a namespace-scope initializer names or its lambdas call, kept for calls through it.
  void note_callable_global(const std::string& var, TSNode value);
  // A call through such a variable (`table[i](a)`, `g(a)`): a call of each function it holds.
  void calls_through_global(TSNode n, TSNode fn, const Guard& g);
  void names_in(TSNode n, std::vector<std::string>& out, int depth) const;
  // Asm labels of the module's declarations, read from its text (the grammar has no node for them).
  void collect_asm_labels();
  // `using namespace at; matmul(a, b)`: an unqualified call of a function the file does not define,
  // handed a tensor, is the namespace's operator ("at::matmul"); "" otherwise.
  std::string through_using_namespace(const std::string& name, const std::vector<TSNode>& args) const;
  // `#define MM(x, y) matmul(x, y)`: the function a function-like macro's body calls, if it is one call.
  std::optional<std::string> macro_callee(const std::string& macro) const;

  // ---- calls and launches ----
  std::string resolve(TSNode fn) const;
  // Records a call (or a launch, then returns true).
  bool call(TSNode n, const Guard& g);
  std::optional<std::string> dtype_in(const std::string& text) const;
  // Whether an expression is a number or a one-element tensor, and whether all operands of a call are:
  // ATen arithmetic on such operands is glue (cuda_common.h's tensor_arithmetic).
  bool one_element(TSNode e) const;
  // `x / n`, `out += bias` on tensors in host code: the ATen operator's call (at::operator/ ...).
  bool tensor_expression(TSNode e) const;
  void tensor_operator(TSNode n, const Guard& g);
  bool one_element_result(const std::string& resolved, const std::vector<TSNode>& args) const;
  bool scalar_operands(TSNode fn, const std::vector<TSNode>& args) const;
  void add_cast(const std::string& dtype, const std::string& via, TSNode n, bool setup = false);
  // Tensor-core precision named by types: a WMMA fragment's template arguments, a CuTe MMA atom's name.
  void tensor_core_type(TSNode n);
  std::set<std::tuple<int, std::string, std::string>> tensor_core_seen_;
  bool zero(TSNode e) const;
  bool zero_text(std::string s) const;
  void chevron(TSNode n, TSNode fn, TSNode cfg, TSNode args, const Guard& g);
  bool macro_launches(TSNode n, const std::string& name, TSNode args, const Guard& g);
  std::string substitute_params(const Macro& macro, TSNode args) const;
  std::optional<std::string> static_cast_type(TSNode e) const;
  void type_conversion(TSNode n);
  // A launch writes what it is handed, and what the descriptors it is handed carry (ThunderKittens'
  // global layouts, a params struct built from data_ptr()s), a few levels deep.
  void mark_written_carried(const std::string& var, int depth);
  // A local handed whole to a free function, and the tensors it carries (a view's base): Return::handed.
  void mark_handed_carried(const std::string& var, const std::pair<std::string, size_t>& to, int depth);
  void api_launch(TSNode n, const LaunchApi& api, const std::vector<TSNode>& args, const Guard& g);
  void finish_launch(Launch& l, TSNode n, const Guard& g);
};

}  // namespace kgate::cuda::detail
