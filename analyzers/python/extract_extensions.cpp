// Extractor, extensions: load_inline / load calls, their sources (strings and the submission's own files), run-time
// compiled kernel sources.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

int Extractor::extension_for(TSNode call, int scope) {
  uint64_t k = ts::key(call);
  if (auto it = extension_by_call_.find(k); it != extension_by_call_.end()) return it->second;
  int index = static_cast<int>(facts_.extensions.size());
  extension_by_call_[k] = index;
  Extension ext;
  TSNode fn = ts::field(call, "function");
  Value callee = eval(ts::field(call, "function"), scope, 1);
  ext.loader = callee.path;
  (void)fn;
  bool inline_loader = callee.path.size() >= 11 && callee.path.compare(callee.path.size() - 11, 11, "load_inline") == 0;
  TSNode args = ts::field(call, "arguments");
  TSNode name = keyword_arg(args, "name");
  if (ts_node_is_null(name)) name = positional_arg(args, 0);
  if (auto n = fold_in(name, scope))
    ext.name = n->text;
  else
    ext.name = "<unnamed>";
  TSNode parent = ts::parent(call);
  if (ts::is(parent, "assignment")) ext.binding = std::string(ts::text(ts::field(parent, "left"), src_));
  ext.span = ts::span(call);
  TSNode functions = keyword_arg(args, "functions");
  if (ts_node_is_null(functions) && inline_loader) functions = positional_arg(args, 3);
  if (!ts_node_is_null(functions)) {
    int saved = current_scope_;
    current_scope_ = scope;
    auto list = folder_.fold_string_list(functions);
    current_scope_ = saved;
    if (list)
      for (const auto& f : *list) ext.functions.push_back(f.text);
  }
  // -DNAME=VALUE in extra_cflags / extra_cuda_cflags: the C++ engines and the PTX witness read the
  // sources with the same macros the build would define.
  const auto defines = [&](const char* keyword, std::vector<std::string>& out) {
    TSNode flags = keyword_arg(args, keyword);
    if (ts_node_is_null(flags)) return;
    int saved = current_scope_;
    current_scope_ = scope;
    auto list = folder_.fold_string_list(flags);
    current_scope_ = saved;
    if (!list) return;
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string& flag = (*list)[i].text;
      if ((flag == "-D" || flag == "--define-macro") && i + 1 < list->size())
        out.push_back((*list)[++i].text);
      else if (flag.rfind("-D", 0) == 0 && flag.size() > 2)
        out.push_back(flag.substr(2));
      else if (flag.rfind("--define-macro=", 0) == 0)
        out.push_back(flag.substr(15));
    }
  };
  defines("extra_cflags", ext.cpp_defines);
  defines("extra_cuda_cflags", ext.cuda_defines);
  facts_.extensions.push_back(ext);

  auto add_sources = [&](TSNode expr, Language lang, const char* role) {
    if (ts_node_is_null(expr) || ts::is(expr, "none")) return;
    int saved = current_scope_;
    current_scope_ = scope;
    auto list = folder_.fold_string_list(expr);
    current_scope_ = saved;
    // Sources in sibling files: load(sources=[Path(__file__).parent / "k.cu"]), or
    // load_inline(cuda_sources=Path(__file__).with_name("k.cu").read_text()). The pipeline reads
    // them next to the submission (extension-sources-unresolved when one is missing).
    if (!list) {
      std::vector<TSNode> items;
      if (ts::is(expr, "list") || ts::is(expr, "tuple"))
        items = ts::named_children(expr);
      else
        items.push_back(expr);
      std::vector<std::string> files;
      for (TSNode item : items) {
        auto file =
            std::string_view(role) == "load-file" ? fold_source_path(item, scope, 0) : file_source(item, scope, 0);
        if (!file) {
          facts_.extensions[index].sources_unresolved = true;
          return;
        }
        files.push_back(std::move(*file));
      }
      for (auto& f : files) facts_.extensions[index].source_files.push_back(std::move(f));
      return;
    }
    for (auto& s : *list) {
      if (std::string_view(role) == "load-file") {
        facts_.extensions[index].source_files.push_back(s.text);
        continue;
      }
      if (embedded_count_ >= limits_.max_embedded_sources) {
        if (!too_many_reported_) {
          too_many_reported_ = true;
          diags_.push_back(input_diag("input-too-many-sources",
                                      "more than " + std::to_string(limits_.max_embedded_sources) +
                                          " embedded C++/CUDA sources; the rest are not analysed",
                                      ts::span(expr)));
        }
        return;
      }
      ++embedded_count_;
      Module m;
      m.language = lang;
      m.role = role;
      m.text = std::move(s.text);
      m.map = std::move(s.map);
      m.span = ts::span(expr);
      m.extension = index;
      facts_.modules.push_back(std::move(m));
    }
  };
  if (inline_loader) {
    TSNode cpp = keyword_arg(args, "cpp_sources");
    if (ts_node_is_null(cpp)) cpp = positional_arg(args, 1);
    TSNode cuda = keyword_arg(args, "cuda_sources");
    if (ts_node_is_null(cuda)) cuda = positional_arg(args, 2);
    add_sources(cpp, Language::Cpp, "cpp_sources");
    add_sources(cuda, Language::Cuda, "cuda_sources");
  } else {
    TSNode sources = keyword_arg(args, "sources");
    if (ts_node_is_null(sources)) sources = positional_arg(args, 1);
    add_sources(sources, Language::Cuda, "load-file");
  }
  return index;
}

// A path the submission builds to one of its own files, folded: literals, `__file__`,
// os.path.dirname/join/abspath, pathlib.Path, `.parent`, `/`, `.with_name`, `.joinpath`, str().
// kSubmissionDir stands for the directory of the submission, which the pipeline substitutes.
int Extractor::sibling_extension(const std::string& import_path) {
  if (siblings_.empty()) return -1;
  const std::string top = import_path.substr(0, import_path.find('.'));
  if (auto it = extension_by_sibling_.find(top); it != extension_by_sibling_.end()) return it->second;
  const auto sibling =
      std::find_if(siblings_.begin(), siblings_.end(), [&](const SiblingModule& m) { return m.name == top; });
  if (sibling == siblings_.end()) return -1;
  Extension ext;
  ext.binding = top;
  ext.name = top;
  ext.loader = "import";  // built by the harness from the sibling file, as KernelBench's ThunderKittens backend does
  ext.source_files.push_back(std::string(kSubmissionDir) + "/" + sibling->file);
  ext.span = Span{1, 1, 1, 1};
  for (const Import& im : facts_.imports)
    if (im.module.substr(0, im.module.find('.')) == top) {
      ext.span = im.span;
      break;
    }
  const int index = static_cast<int>(facts_.extensions.size());
  facts_.extensions.push_back(std::move(ext));
  extension_by_sibling_[top] = index;
  return index;
}

std::optional<std::string> Extractor::fold_source_path(TSNode expr, int scope, int depth) {
  if (ts_node_is_null(expr) || depth > 12) return std::nullopt;
  auto dirname = [](const std::string& p) -> std::string {
    const size_t slash = p.rfind('/');
    return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
  };
  auto join = [](const std::string& a, const std::string& b) { return !b.empty() && b[0] == '/' ? b : a + "/" + b; };
  std::string_view t = ts::type(expr);
  if (t == "string" || t == "concatenated_string") {
    auto folded = folder_.fold_string(expr);
    if (folded) return folded->text;
    return std::nullopt;
  }
  if (t == "parenthesized_expression") return fold_source_path(ts::named_child(expr, 0), scope, depth + 1);
  if (t == "identifier") {
    const std::string name(ts::text(expr, src_));
    if (name == "__file__") return std::string(kSubmissionDir) + "/__file__";
    Found f = find_name(name, scope);
    if (f.k != Found::K::Binding || f.bindings->empty() || ts_node_is_null(f.bindings->back().expr))
      return std::nullopt;
    return fold_source_path(f.bindings->back().expr, f.bindings->back().scope, depth + 1);
  }
  if (t == "attribute" && ts::text(ts::field(expr, "attribute"), src_) == "parent") {
    auto base = fold_source_path(ts::field(expr, "object"), scope, depth + 1);
    if (base) return dirname(*base);
    return std::nullopt;
  }
  if (t == "binary_operator" && ts::text(ts::field(expr, "operator"), src_) == "/") {
    auto left = fold_source_path(ts::field(expr, "left"), scope, depth + 1);
    auto right = fold_source_path(ts::field(expr, "right"), scope, depth + 1);
    if (left && right) return join(*left, *right);
    return std::nullopt;
  }
  if (t != "call") return std::nullopt;
  TSNode fn = ts::field(expr, "function");
  TSNode args = ts::field(expr, "arguments");
  std::vector<std::optional<std::string>> folded;
  for (TSNode a : ts::named_children(args)) folded.push_back(fold_source_path(a, scope, depth + 1));
  auto all = [&]() { return std::all_of(folded.begin(), folded.end(), [](const auto& f) { return f.has_value(); }); };
  if (ts::is(fn, "attribute")) {  // methods of a path value
    const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
    if (method == "resolve" || method == "absolute" || method == "expanduser")
      return fold_source_path(ts::field(fn, "object"), scope, depth + 1);
    if (method == "with_name" && folded.size() == 1 && folded[0]) {
      auto base = fold_source_path(ts::field(fn, "object"), scope, depth + 1);
      if (base) return join(dirname(*base), *folded[0]);
      return std::nullopt;
    }
    if (method == "joinpath" && all()) {
      auto base = fold_source_path(ts::field(fn, "object"), scope, depth + 1);
      if (!base) return std::nullopt;
      for (const auto& part : folded) *base = join(*base, *part);
      return base;
    }
  }
  const Value callee = eval(fn, scope, 1);
  if (callee.k != Value::K::Path) return std::nullopt;
  const std::string& p = callee.path;
  if ((p == "os.path.dirname") && folded.size() == 1 && folded[0]) return dirname(*folded[0]);
  if ((p == "os.path.join" || p == "posixpath.join") && !folded.empty() && all()) {
    std::string out = *folded[0];
    for (size_t i = 1; i < folded.size(); ++i) out = join(out, *folded[i]);
    return out;
  }
  if ((p == "os.path.abspath" || p == "os.path.realpath" || p == "os.path.normpath" || p == "os.fspath" ||
       p == "builtins.str" || p == "pathlib.Path" || p == "pathlib.PurePath" || p == "pathlib.PosixPath") &&
      folded.size() == 1 && folded[0])
    return folded[0];
  return std::nullopt;
}

// A source string read from one of the submission's own files: open(path).read(),
// Path(...).read_text(), or a name bound to one. Returns the folded path.
std::optional<std::string> Extractor::file_source(TSNode expr, int scope, int depth) {
  if (ts_node_is_null(expr) || depth > 8) return std::nullopt;
  if (ts::is(expr, "identifier")) {
    Found f = find_name(std::string(ts::text(expr, src_)), scope);
    if (f.k != Found::K::Binding || f.bindings->empty() || ts_node_is_null(f.bindings->back().expr))
      return std::nullopt;
    return file_source(f.bindings->back().expr, f.bindings->back().scope, depth + 1);
  }
  if (!ts::is(expr, "call")) return std::nullopt;
  TSNode fn = ts::field(expr, "function");
  if (!ts::is(fn, "attribute")) return std::nullopt;
  const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
  TSNode object = ts::field(fn, "object");
  if (method == "read_text") return fold_source_path(object, scope, depth + 1);
  if (method == "read" && ts::is(object, "call")) {
    const Value opener = eval(ts::field(object, "function"), scope, 1);
    if (opener.k == Value::K::Path &&
        (opener.path == "builtins.open" || opener.path == "io.open" || opener.path == "codecs.open"))
      return fold_source_path(positional_arg(ts::field(object, "arguments"), 0), scope, depth + 1);
  }
  return std::nullopt;
}

// CUDA C++ that a kernel language compiles at run time (cupy.RawKernel(code, name), RawModule(code=),
// torch.cuda.jiterator._create_jit_fn(code)): an embedded module of its own, so the C++ engines see
// its kernels and what they call, as for load_inline sources.
void Extractor::record_kernel_source(TSNode args, const std::string& compiler) {
  TSNode code = keyword_arg(args, "code");
  if (ts_node_is_null(code)) code = positional_arg(args, 0);
  if (ts_node_is_null(code) || embedded_count_ >= limits_.max_embedded_sources) return;
  auto folded = folder_.fold_string(code);
  if (!folded) return;
  ++embedded_count_;
  Module m;
  m.language = Language::Cuda;
  m.role = "kernel-source:" + compiler;
  m.text = std::move(folded->text);
  m.map = std::move(folded->map);
  m.span = ts::span(code);
  facts_.modules.push_back(std::move(m));
}

// `mod.fn(x)` where mod could not be followed to a load_inline call (built by a helper, say):
// a method whose name an extension exports is taken as a call into that extension.
void Extractor::link_extension_calls_by_name() {
  if (facts_.extensions.empty()) return;
  std::unordered_map<std::string, int> exported;
  for (size_t e = 0; e < facts_.extensions.size(); ++e)
    for (const auto& f : facts_.extensions[e].functions) exported.emplace(f, static_cast<int>(e));
  size_t n = facts_.calls.size();
  for (size_t i = 0; i < n; ++i) {
    Call& c = facts_.calls[i];
    if (c.local_target || c.resolved.rfind("extension.", 0) == 0 || c.receiver == ReceiverKind::Module) continue;
    if (c.receiver != ReceiverKind::Value && c.receiver != ReceiverKind::Self) continue;
    // Only receivers we could not follow at all (they fell back to tensor methods).
    if (c.resolved.rfind("torch.Tensor.", 0) != 0) continue;
    auto it = exported.find(c.method);
    if (it == exported.end()) continue;
    const std::string& ext = facts_.extensions[it->second].name;
    c.resolved = "extension." + ext + "." + c.method;
    Launch l;
    l.kind = LaunchKind::Extension;
    l.kernel = ext + "." + c.method;
    l.function = c.function;
    l.guard = c.guard;
    l.span = c.span;
    launch_start_.push_back(call_start_[i]);
    facts_.launches.push_back(l);
  }
}

}  // namespace kgate::python::detail
