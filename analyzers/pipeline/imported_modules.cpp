// Following the host's calls into Python modules of its own directory (see imported_modules.h).
#include "analyzers/pipeline/python_stdlib.h"
#include "analyzers/pipeline/imported_modules.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

#include "analyzers/core/content_hash.h"
#include "analyzers/core/file_text.h"

namespace kgate {

namespace {

constexpr int kMaxDepth = 3;
constexpr size_t kMaxRoots = 16;  // calls followed per file
constexpr std::string_view kRoot = "__kgate_root__";

// Libraries no submission ships beside itself: their imports are not looked up on disk.
bool library(std::string_view top) {
  static constexpr std::array<std::string_view, 40> kNames = {
      "torch",     "triton",      "numpy",    "math",       "os",       "sys",         "typing",  "functools",
      "itertools", "collections", "ctypes",   "time",       "re",       "json",        "pathlib", "cupy",
      "numba",     "tilelang",    "cutlass",  "cuda",       "einops",   "warnings",    "abc",     "enum",
      "random",    "subprocess",  "inspect",  "gc",         "operator", "dataclasses", "tvm",     "contextlib",
      "importlib", "hashlib",     "tempfile", "__future__", "logging",  "threading",   "struct",  "copy"};
  return std::find(kNames.begin(), kNames.end(), top) != kNames.end();
}

// Published libraries of kernels, kernel languages and models: a call into one is library code (judged
// by name, or a kernel language's own reading), never a helper of the submission that is missing.
bool third_party(std::string_view top) {
  static constexpr std::array<std::string_view, 45> kNames = {"flash_attn",
                                                              "xformers",
                                                              "apex",
                                                              "liger_kernel",
                                                              "flashinfer",
                                                              "deep_gemm",
                                                              "transformer_engine",
                                                              "vllm",
                                                              "sgl_kernel",
                                                              "bitsandbytes",
                                                              "torchao",
                                                              "fbgemm_gpu",
                                                              "mamba_ssm",
                                                              "causal_conv1d",
                                                              "aiter",
                                                              "torchvision",
                                                              "transformers",
                                                              "scipy",
                                                              "jax",
                                                              "tensorrt",
                                                              "onnxruntime",
                                                              "timm",
                                                              "cudnn",
                                                              "cupyx",
                                                              "pycuda",
                                                              "nvidia",
                                                              "cuda_python",
                                                              "hip",
                                                              "thunderkittens",
                                                              "quack",
                                                              "pandas",
                                                              "PIL",
                                                              "sklearn",
                                                              "yaml",
                                                              "tqdm",
                                                              "safetensors",
                                                              "huggingface_hub",
                                                              "packaging",
                                                              "pytest",
                                                              "psutil",
                                                              "pynvml",
                                                              "setuptools",
                                                              "helion",
                                                              "ttnn",
                                                              "pykernel"};
  return std::find(kNames.begin(), kNames.end(), top) != kNames.end();
}

std::string_view strip_dots(std::string_view s) {
  while (!s.empty() && s.front() == '.') s.remove_prefix(1);
  return s;
}

bool dotted_identifier(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.' || std::isdigit(static_cast<unsigned char>(s.front())))
    return false;
  return std::all_of(s.begin(), s.end(),
                     [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.'; });
}

// The harness profile an imported module is analysed under: its one root is the function appended
// to its text, which makes the host's access.
const HarnessSet& imported_profiles() {
  static const HarnessSet set = [] {
    HarnessSet s;
    HarnessProfile p;
    p.name = "imported-module";
    p.summary = "a Python module of the submission's directory, entered through one call of the host";
    p.entry_functions = {std::string(kRoot)};
    p.without_entry = WithoutEntry::Judged;
    s.add(std::move(p));
    return s;
  }();
  return set;
}

struct ModuleFile {
  std::string module;  // dotted, without leading dots: "kernels", "pkg.ops"
  std::filesystem::path path;
  std::optional<std::string> text;  // a bundle sidecar's text, else read from path
};

// The modules the host imports that are files of its own directory (or a bundle's sidecars).
std::vector<ModuleFile> module_files(const SourceFile& file, const FactSet& facts,
                                     const std::vector<std::pair<std::string, std::string>>& sidecars) {
  std::vector<ModuleFile> out;
  const std::filesystem::path self = std::filesystem::path(file.path).lexically_normal();
  const std::filesystem::path dir = self.has_parent_path() ? self.parent_path() : std::filesystem::path(".");
  const auto consider = [&](const std::string& module) {
    if (module.empty() || !dotted_identifier(module) || library(module.substr(0, module.find('.')))) return;
    if (std::any_of(out.begin(), out.end(), [&](const ModuleFile& m) { return m.module == module; })) return;
    std::string relative = module;
    std::replace(relative.begin(), relative.end(), '.', '/');
    const std::filesystem::path candidates[] = {dir / (relative + ".py"), dir / relative / "__init__.py"};
    for (const auto& candidate : candidates) {
      if (candidate.lexically_normal() == self) return;
      for (const auto& [name, text] : sidecars)
        if (relative.find('/') == std::string::npos && name == relative + ".py") {
          out.push_back({module, candidate, text});
          return;
        }
      std::error_code ec;
      if (std::filesystem::is_regular_file(candidate, ec)) {
        out.push_back({module, candidate, std::nullopt});
        return;
      }
    }
  };
  for (const Import& im : facts.imports) {
    if (im.dynamic || im.harness_allowed || im.harness_forbidden) continue;
    const std::string base(strip_dots(im.module));
    if (!im.name.empty()) consider(base.empty() ? im.name : base + "." + im.name);  // from pkg import sub
    consider(base);
  }
  // Longest first: a call into pkg.ops matches pkg.ops before pkg.
  std::sort(out.begin(), out.end(),
            [](const ModuleFile& a, const ModuleFile& b) { return a.module.size() > b.module.size(); });
  return out;
}

Guard merged(const Guard& outer, const Guard& inner) {
  Guard g = outer;
  g.constant_false |= inner.constant_false;
  g.after_return |= inner.after_return;
  g.impossible_shape |= inner.impossible_shape;
  g.training |= inner.training;
  g.shape_test |= inner.shape_test;
  g.in_try |= inner.in_try;
  g.in_except |= inner.in_except;
  g.side_stream |= inner.side_stream;
  g.script_main |= inner.script_main;
  g.value_statistic |= inner.value_statistic;
  return g;
}

bool python_body(FunctionKind kind) { return kind == FunctionKind::Python || kind == FunctionKind::Lambda; }

// Copies what `root`'s module reaches into the host at `site` (a copy: facts.calls grows here), when
// the module defines the root's target; otherwise the host's call stays unknown.
void summarise(const std::string& module, const FactSet& imported, const Call site, FactSet& facts) {
  const int root = imported.entry;
  if (root < 0) return;
  const bool found = std::any_of(imported.calls.begin(), imported.calls.end(),
                                 [&](const Call& c) { return c.function == root && c.local_target; }) ||
                     std::any_of(imported.launches.begin(), imported.launches.end(),
                                 [&](const Launch& l) { return l.function == root; });
  if (!found) return;
  for (const Function& f : imported.functions)
    if (is_kernel(f.kind)) facts.imported_kernels.push_back(f.name);
  facts.imported_kernels.insert(facts.imported_kernels.end(), imported.imported_kernels.begin(),
                                imported.imported_kernels.end());

  std::map<int, int> host_function;  // the module's function -> the host's stand-in for it
  const auto stand_in = [&](int f) {
    if (f == root || f < 0 || f >= static_cast<int>(imported.functions.size())) return site.function;
    if (auto it = host_function.find(f); it != host_function.end()) return it->second;
    Function fn;
    fn.name = imported.functions[f].name;
    fn.qualname = module + "." + imported.functions[f].qualname;
    fn.kind = imported.functions[f].kind == FunctionKind::Lambda ? FunctionKind::Lambda : FunctionKind::Python;
    fn.module = 0;
    fn.parent = site.function;
    fn.span = site.span;
    fn.reachable = site.reachable;
    const int index = static_cast<int>(facts.functions.size());
    facts.functions.push_back(std::move(fn));
    host_function.emplace(f, index);
    return index;
  };
  const auto in_python = [&](int f) {
    return f >= 0 && f < static_cast<int>(imported.functions.size()) && imported.functions[f].module == 0 &&
           python_body(imported.functions[f].kind);
  };

  for (const Call& c : imported.calls) {
    if (!c.reachable || c.module != 0 || c.local_target || c.resolved.empty() || !in_python(c.function)) continue;
    Call copy = c;
    copy.function = stand_in(c.function);
    copy.span = site.span;
    copy.guard = merged(site.guard, c.guard);
    copy.reachable = site.reachable && !copy.guard.dead();
    copy.wrapped_function = -1;
    facts.calls.push_back(std::move(copy));
  }
  for (const Launch& l : imported.launches) {
    if (!l.reachable || l.module != 0 || !in_python(l.function)) continue;
    Launch copy = l;
    copy.kernel = module + "." + l.kernel;
    copy.kernel_function = -1;
    copy.function = stand_in(l.function);
    copy.span = site.span;
    copy.guard = merged(site.guard, l.guard);
    copy.reachable = site.reachable && !copy.guard.dead();
    facts.launches.push_back(std::move(copy));
  }
}

}  // namespace

void follow_imported_modules(const SourceFile& file, FactSet& facts, const ingest::Limits& limits,
                             const std::vector<std::pair<std::string, std::string>>& sidecars,
                             const ExtractModule& extract, int depth, std::vector<std::string>* on_the_way,
                             std::vector<std::pair<std::string, std::string>>* files_read) {
  if (depth >= kMaxDepth || facts.entries.empty() || facts.imports.empty()) return;
  std::vector<ModuleFile> modules = module_files(file, facts, sidecars);
  // Imports of the submission's own modules that are not here (entry-helper-missing names the calls).
  for (Import& im : facts.imports) {
    if (im.dynamic || im.harness_allowed || im.harness_forbidden) continue;
    const std::string base(strip_dots(im.module));
    const std::string full = im.name.empty() ? base : (base.empty() ? im.name : base + "." + im.name);
    const std::string top = full.substr(0, full.find('.'));
    if (!dotted_identifier(full) || library(top) || python_stdlib_module(top) || third_party(top)) continue;
    im.missing = std::none_of(modules.begin(), modules.end(),
                              [&](const ModuleFile& m) { return m.module == full || m.module == base; });
  }
  if (modules.empty()) return;
  std::vector<std::string> chain = on_the_way ? *on_the_way : std::vector<std::string>{};
  chain.push_back(std::filesystem::path(file.path).lexically_normal().string());

  std::map<std::string, std::optional<std::string>> texts;  // path -> text (nullopt: unreadable or too large)
  size_t roots = 0;
  const size_t host_calls = facts.calls.size();
  for (size_t i = 0; i < host_calls && roots < kMaxRoots; ++i) {
    if (!facts.calls[i].reachable || facts.calls[i].local_target) continue;
    const std::string_view resolved = strip_dots(facts.calls[i].resolved);
    const auto m = std::find_if(modules.begin(), modules.end(), [&](const ModuleFile& mf) {
      return resolved.size() > mf.module.size() + 1 && resolved.substr(0, mf.module.size()) == mf.module &&
             resolved[mf.module.size()] == '.';
    });
    if (m == modules.end()) continue;
    const std::string path = m->path.lexically_normal().string();
    if (std::find(chain.begin(), chain.end(), path) != chain.end()) continue;
    const std::string target(resolved.substr(m->module.size() + 1));
    if (!dotted_identifier(target)) continue;
    const Call site = facts.calls[i];

    auto text = texts.find(path);
    if (text == texts.end()) {
      std::optional<std::string> read = m->text;
      std::error_code ec;
      if (!read) {
        const auto size = std::filesystem::file_size(m->path, ec);
        if (!ec && size <= limits.max_file_bytes) read = read_file_text(m->path);
        if (read && files_read &&
            std::none_of(files_read->begin(), files_read->end(), [&](const auto& f) { return f.first == path; }))
          files_read->emplace_back(path, sha256_hex(*read));
      }
      text = texts.emplace(path, std::move(read)).first;
    }
    if (!text->second) continue;
    ++roots;

    // The host's access, written as the module's own root: a call of the target, or of an instance
    // of it (self.op = Op(); self.op(x)).
    std::string root_text = *text->second;
    root_text += "\n\ndef " + std::string(kRoot) + "(*args, **kwargs):\n";
    if (site.instance_call)
      root_text += "    _kgate_instance = " + target + "()\n    return _kgate_instance(*args, **kwargs)\n";
    else
      root_text += "    return " + target + "(*args, **kwargs)\n";
    const SourceFile imported_file(path, std::move(root_text));
    FactSet imported;
    extract(imported_file, imported, HarnessChoice{&imported_profiles(), "imported-module", {}});
    follow_imported_modules(imported_file, imported, limits, {}, extract, depth + 1, &chain, files_read);
    summarise(m->module, imported, site, facts);
  }
}

}  // namespace kgate
