// device_only_text(): blank what NVRTC cannot compile, keep every byte's place (device_text.h).
#include "analyzers/ptx/device_text.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <string>

#include "analyzers/treesitter/ts_node.h"

extern "C" const TSLanguage* tree_sitter_cuda(void);

namespace kgate::ptx {
namespace {

// Names that only host code has, besides the host namespaces (Blanker::host_namespaces_): torch's tensor
// type and extension macros, and the runtime API's and libraries' host handles.
const std::regex& host_names() {
  static const std::regex re(
      R"(\bTensor\b|\bPYBIND11_MODULE\b|\bTORCH_LIBRARY\w*|\bTORCH_EXTENSION_NAME\b|\bcudaStream_t\b|)"
      R"(\bcudaEvent_t\b|\bcublas\w*|\bcudnn\w*|\bcudaError_t\b)");
  return re;
}

// The standard library's host-only names: containers, strings, streams, threads, smart pointers.
const std::set<std::string>& host_std() {
  static const std::set<std::string> names = {
      "vector",    "string",  "string_view",  "map",           "unordered_map", "set",         "unordered_set",
      "list",      "deque",   "unique_ptr",   "shared_ptr",    "make_unique",   "make_shared", "function",
      "thread",    "future",  "async",        "launch",        "mutex",         "lock_guard",  "cout",
      "cerr",      "ostream", "stringstream", "ostringstream", "runtime_error", "exception",   "invalid_argument",
      "to_string", "getenv",  "filesystem",   "chrono"};
  return names;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Calls `f(word, end)` for each identifier-like word of `t` in order, `end` being the offset after it;
// true as soon as `f` is.
template <class F>
bool any_word(std::string_view t, F&& f) {
  for (size_t i = 0; i < t.size();) {
    if (!is_word(t[i]) || (i > 0 && is_word(t[i - 1]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < t.size() && is_word(t[end])) ++end;
    if (f(t.substr(i, end - i), end)) return true;
    i = end;
  }
  return false;
}

// `k<float, 128><<<`: a launch of a template kernel with explicit arguments (one level of nesting).
const std::regex& template_launch() {
  static const std::regex re(R"(([A-Za-z_][\w:]*)\s*<((?:[^<>;{}()]|<[^<>;{}()]*>)+)>\s*<<<)");
  return re;
}

class Blanker {
 public:
  Blanker(std::string_view source, DeviceText& out) : source_(source), out_(out) { out_.text.assign(source); }

  void run() {
    ts::ParserPtr parser(ts_parser_new());
    ts_parser_set_language(parser.get(), tree_sitter_cuda());
    ts::TreePtr tree(ts::parse_within_budget(parser.get(), source_));
    if (!tree) return;
    TSNode root = ts_tree_root_node(tree.get());
    collect_device_macros(root, 0);
    scope(root, 0);
  }

 private:
  std::string_view text(TSNode n) const { return ts::text(n, source_); }

  void blank(TSNode n) {
    const uint32_t end = std::min<uint32_t>(ts_node_end_byte(n), static_cast<uint32_t>(out_.text.size()));
    for (uint32_t b = ts_node_start_byte(n); b < end; ++b)
      if (out_.text[b] != '\n') out_.text[b] = ' ';
  }

  // Macros whose value names a CUDA execution space (`#define KERNEL __global__`).
  void collect_device_macros(TSNode n, int depth) {
    if (depth > 64) return;
    for (TSNode c : ts::named_children(n)) {
      if (ts::is(c, "preproc_def") || ts::is(c, "preproc_function_def")) {
        const std::string_view value = text(ts::field(c, "value"));
        if (value.find("__global__") != std::string_view::npos || value.find("__device__") != std::string_view::npos)
          device_macros_.insert(std::string(text(ts::field(c, "name"))));
      } else if (ts::type(c).substr(0, 8) == "preproc_" || ts::is(c, "namespace_definition") ||
                 ts::is(c, "declaration_list") || ts::is(c, "linkage_specification")) {
        collect_device_macros(c, depth + 1);
      }
    }
  }

  bool names_device_space(std::string_view head) const {
    if (head.find("__global__") != std::string_view::npos || head.find("__device__") != std::string_view::npos)
      return true;
    return !device_macros_.empty() &&
           any_word(head, [&](std::string_view w, size_t) { return device_macros_.count(std::string(w)) > 0; });
  }

  // A function definition's head (from 24 bytes before it, where the grammar sometimes leaves a
  // qualifier, to its body) names __global__ or __device__.
  bool is_device_function(TSNode definition, TSNode outer) const {
    TSNode body = ts::field(definition, "body");
    const uint32_t start = ts_node_start_byte(outer);
    const uint32_t from = start >= 24 ? start - 24 : 0;
    const uint32_t to = ts_node_is_null(body) ? ts_node_end_byte(definition) : ts_node_start_byte(body);
    return names_device_space(source_.substr(from, to - from));
  }

  // Whether the text names a host namespace: `ns::`, `using namespace ns`, or `= ns` (an alias of it).
  bool names_host_namespace(std::string_view t) const {
    return any_word(t, [&](std::string_view w, size_t end) {
      const std::string word(w);
      const bool host = host_namespaces_.count(word) > 0;
      const bool standard = std_namespaces_.count(word) > 0;
      if (!host && !standard) return false;
      size_t after = end;
      while (after < t.size() && (t[after] == ' ' || t[after] == '\t')) ++after;
      if (after + 1 < t.size() && t[after] == ':' && t[after + 1] == ':') {
        // std:: names that libcu++ has too (the prelude maps std to cuda::std) stay device code.
        size_t name = after + 2;
        size_t name_end = name;
        while (name_end < t.size() && is_word(t[name_end])) ++name_end;
        return host || host_std().count(std::string(t.substr(name, name_end - name))) > 0;
      }
      return host && t.find("namespace") != std::string_view::npos;  // using namespace torch; namespace tt = torch;
    });
  }

  bool mentions_host(TSNode n) const {
    const std::string_view t = text(n);
    return names_host_namespace(t) || std::regex_search(t.begin(), t.end(), host_names()) || names_blanked(t);
  }

  // Whether the text names a type or function blanked before it (`using Launcher = void (*)(at::Tensor&)`
  // makes `static const Launcher table[] = {&launch};` host code too).
  bool names_blanked(std::string_view t) const {
    return !blanked_names_.empty() &&
           any_word(t, [&](std::string_view w, size_t) { return blanked_names_.count(std::string(w)) > 0; });
  }

  // The name a definition or declaration introduces (its last identifier before the parameters).
  static std::string declared_name(TSNode n, std::string_view source) {
    for (int depth = 0; depth < 8 && !ts_node_is_null(n); ++depth) {
      if (ts::is(n, "identifier") || ts::is(n, "type_identifier") || ts::is(n, "field_identifier")) break;
      TSNode next = ts::field(n, "declarator");
      if (ts_node_is_null(next)) next = ts::field(n, "name");
      n = next;
    }
    if (ts_node_is_null(n)) return {};
    std::string_view t = ts::text(n, source);
    if (auto colon = t.rfind("::"); colon != std::string_view::npos) t = t.substr(colon + 2);
    return std::string(t);
  }

  void blank_host(TSNode n, TSNode named) {
    if (std::string name = declared_name(named, source_); !name.empty()) blanked_names_.insert(name);
    blank(n);
  }

  // A struct that device code may use keeps its fields; its member functions without an execution space
  // are host code, which NVRTC does not compile.
  void host_members(TSNode record) {
    TSNode body = ts::field(record, "body");
    if (ts_node_is_null(body)) return;
    for (TSNode m : ts::named_children(body)) {
      TSNode definition = m;
      if (ts::is(m, "template_declaration"))
        for (TSNode k : ts::named_children(m)) definition = k;
      if (ts::is(definition, "function_definition") && !is_device_function(definition, m)) blank(m);
    }
  }

  // `namespace tt = torch;`: tt is a host namespace from here on (blanked); `namespace s = std;` keeps
  // what std keeps.
  void alias(TSNode n) {
    const std::string name(text(ts::field(n, "name")));
    std::string_view target = text(n);
    target = target.substr(target.find('=') == std::string_view::npos ? target.size() : target.find('=') + 1);
    while (!target.empty() && !is_word(target.front())) target.remove_prefix(1);
    size_t end = 0;
    while (end < target.size() && is_word(target[end])) ++end;
    const std::string head(target.substr(0, end));
    if (std_namespaces_.count(head) && target.find("::") == std::string_view::npos) {
      std_namespaces_.insert(name);
    } else if (mentions_host(n)) {
      host_namespaces_.insert(name);
      blank(n);
    }
  }

  // Template kernels that this (host) code launches with explicit template arguments.
  void collect_launches(TSNode host_function) {
    const std::string body(text(host_function));
    static const std::regex scalar(R"(\bscalar_t\b)");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), template_launch()); it != std::sregex_iterator();
         ++it) {
      std::string expression = (*it)[1].str() + "<" + std::regex_replace((*it)[2].str(), scalar, "float") + ">";
      bool known = false;
      for (const auto& e : out_.name_expressions) known = known || e == expression;
      if (!known) out_.name_expressions.push_back(std::move(expression));
    }
  }

  void function(TSNode definition, TSNode outer) {
    if (is_device_function(definition, outer)) return;
    collect_launches(outer);
    blank_host(outer, definition);
    ++out_.blanked_functions;
  }

  // `outer`: the node blanked with it (an `extern "C"` linkage around the declaration), or n itself.
  void declaration(TSNode n, TSNode outer) {
    const std::string_view t = text(n);
    for (const char* space : {"__device__", "__constant__", "__shared__", "__managed__", "__global__"})
      if (t.find(space) != std::string_view::npos) return;
    // A function prototype without an execution space is a host function's; a variable without one is a
    // host variable, which device code may read only when it is a constant.
    bool prototype = false;
    for (TSNode c : ts::named_children(n)) prototype = prototype || ts::is(c, "function_declarator");
    const bool variable = !prototype && !ts_node_is_null(ts::field(n, "declarator"));
    static const std::regex constant_words(R"(\b(const|constexpr)\b)");
    const bool constant = std::regex_search(t.begin(), t.end(), constant_words);
    if (prototype || mentions_host(n) || (variable && !constant)) {
      blank_host(outer, n);
    } else {
      for (TSNode c : ts::named_children(n))
        if (ts::is(c, "struct_specifier") || ts::is(c, "class_specifier")) host_members(c);
    }
  }

  void item(TSNode c, int depth) {
    const std::string_view t = ts::type(c);
    if (t == "function_definition") {
      function(c, c);
    } else if (t == "template_declaration") {
      TSNode inner{};
      for (TSNode k : ts::named_children(c)) inner = k;  // the templated declaration comes last
      if (ts::is(inner, "function_definition"))
        function(inner, c);
      else if (ts::is(inner, "declaration"))
        declaration(c, c);
      else if (mentions_host(c))
        blank(c);
    } else if (t == "declaration") {
      declaration(c, c);
    } else if (t == "namespace_definition") {
      scope(ts::field(c, "body"), depth + 1);
    } else if (t == "linkage_specification") {
      TSNode body = ts::field(c, "body");
      // `extern "C" void solve(...) {...}` (LeetGPU's entry): a host function blanked with its linkage, so
      // that no bare `extern "C"` is left for NVRTC.
      if (ts::is(body, "declaration_list"))
        scope(body, depth + 1);
      else if (ts::is(body, "function_definition"))
        function(body, c);
      else if (ts::is(body, "declaration"))
        declaration(body, c);
      else if (!ts_node_is_null(body))
        item(body, depth + 1);
    } else if (t == "preproc_include") {
      std::string_view path = text(ts::field(c, "path"));
      if (path.size() >= 2) path = path.substr(1, path.size() - 2);
      if (!is_device_header(path)) blank(c);
    } else if (t == "preproc_if" || t == "preproc_ifdef" || t == "preproc_else" || t == "preproc_elif" ||
               t == "preproc_elifdef") {
      TSNode condition = ts::field(c, "condition");
      TSNode name = ts::field(c, "name");
      for (TSNode k : ts::named_children(c)) {
        if (ts_node_eq(k, condition) || ts_node_eq(k, name)) continue;
        item(k, depth + 1);
      }
    } else if (t == "preproc_def" || t == "preproc_function_def" || t == "preproc_call" || t == "comment") {
      // kept: macros the kernels use, pragmas
    } else if (t == "namespace_alias_definition") {
      alias(c);
    } else if (t == "type_definition" || t == "alias_declaration" || t == "using_declaration" ||
               t == "struct_specifier" || t == "class_specifier" || t == "enum_specifier" || t == "union_specifier" ||
               t == "static_assert_declaration") {
      if (mentions_host(c))
        blank_host(c, c);
      else if (t == "struct_specifier" || t == "class_specifier")
        host_members(c);
    } else {
      // A statement at namespace scope (a macro invocation such as PYBIND11_MODULE the grammar could
      // not place), or an ERROR node: kept only where it names a device execution space.
      if (!names_device_space(text(c))) blank(c);
    }
  }

  void scope(TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > 64) return;
    for (TSNode c : ts::named_children(n)) item(c, depth);
  }

  std::string_view source_;
  DeviceText& out_;
  std::set<std::string> device_macros_;
  std::set<std::string> blanked_names_;  // host functions, types and variables blanked so far
  std::set<std::string> host_namespaces_ = {"torch", "at", "c10", "pybind11", "py", "thrust"};
  std::set<std::string> std_namespaces_ = {"std"};
};

}  // namespace

bool is_device_header(std::string_view path) {
  static const std::set<std::string, std::less<>> headers = {"cuda_fp16.h",
                                                             "cuda_bf16.h",
                                                             "cuda_fp8.h",
                                                             "cuda_fp4.h",
                                                             "cuda_fp6.h",
                                                             "mma.h",
                                                             "cooperative_groups.h",
                                                             "cuda_pipeline.h",
                                                             "cuda_pipeline_primitives.h",
                                                             "cuda_awbarrier.h",
                                                             "cuda_awbarrier_primitives.h",
                                                             "math_constants.h",
                                                             "vector_types.h",
                                                             "sm_60_atomic_functions.h",
                                                             "sm_61_intrinsics.h",
                                                             "sm_80_intrinsics.h",
                                                             "device_atomic_functions.h"};
  if (headers.count(path)) return true;
  return path.rfind("cuda/", 0) == 0 || path.rfind("cooperative_groups/", 0) == 0;
}

DeviceText device_only_text(std::string_view cuda_source) {
  DeviceText out;
  Blanker(cuda_source, out).run();
  return out;
}

}  // namespace kgate::ptx
