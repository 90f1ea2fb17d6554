// Engine choice for CUDA C++ modules (Clang when registered, tree-sitter otherwise) and the
// cross-language launch proof (link), built with either engine.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzers/core/budget.h"
#include "analyzers/cuda/cuda_common.h"
#include "analyzers/cuda/cuda_facts.h"

namespace kgate::cuda {
namespace {

// Set once by kgate_clang's clang_init(); read afterwards (no locking needed after start-up).
ClangEngineFn g_clang_engine = nullptr;

bool is_cpp(Language l) { return l == Language::Cuda || l == Language::Cpp; }

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Language language_of_path(std::string_view path) {
  for (std::string_view e : {".cu", ".cuh", ".CU"})
    if (ends_with(path, e)) return Language::Cuda;
  return Language::Cpp;
}

bool has_decorator(const Function& f, std::string_view d) {
  return std::find(f.decorators.begin(), f.decorators.end(), d) != f.decorators.end();
}

}  // namespace

void register_clang_engine(ClangEngineFn engine) { g_clang_engine = engine; }
bool clang_available() { return g_clang_engine != nullptr; }

void extract_facts(const SourceFile& host, FactSet& facts, std::vector<Diagnostic>& diagnostics,
                   const CudaOptions& options) {
  if (facts.modules.empty()) {
    Module m;
    m.language = language_of_path(host.path);
    m.role = "host";
    m.text = host.text;
    m.span = host.span(0, static_cast<uint32_t>(host.text.size()));
    facts.modules.push_back(std::move(m));
    if (facts.format == SubmissionFormat::Unknown) facts.format = SubmissionFormat::RawCuda;
  }
  // load_inline joins a list of sources of one role with "\n" and compiles them as one file, so the
  // strings of one (extension, role) are analysed together: their texts and source maps are
  // concatenated into the first module of the group for the run, and restored afterwards. Facts
  // name that first module.
  std::vector<char> done(facts.modules.size(), 0);
  bool any_clang = false;
  for (int i = 0; i < static_cast<int>(facts.modules.size()); ++i) {
    if (!is_cpp(facts.modules[i].language) || done[i]) continue;
    if (budget_exhausted()) return;  // the per-file deadline or memory limit: the pipeline reports it
    done[i] = 1;
    Module& first = facts.modules[i];
    std::string saved_text;
    SourceMap saved_map;
    bool merged = false;
    if (first.extension >= 0 && !first.map.empty()) {
      for (int j = i + 1; j < static_cast<int>(facts.modules.size()); ++j) {
        const Module& other = facts.modules[j];
        if (done[j] || other.extension != first.extension || other.role != first.role || other.map.empty()) continue;
        if (!merged) {
          saved_text = first.text;
          saved_map = first.map;
          merged = true;
          first.joined = {{i, 0}};
        }
        uint32_t last = first.map.host_offset(static_cast<uint32_t>(first.text.size()) - (first.text.empty() ? 0 : 1));
        first.text += '\n';
        first.map.append(last);
        first.joined.emplace_back(j, static_cast<uint32_t>(first.text.size()));
        first.text += other.text;
        first.map.append_map(other.map);
        done[j] = 1;
      }
    }
    std::string why = "Clang is not built into this binary";
    bool ok = false;
    if (options.force_tree_sitter)
      why = "the tree-sitter engine was requested";
    else if (g_clang_engine)
      ok = g_clang_engine(host, facts, i, options, why);
    if (!ok && budget_exhausted()) return;  // Clang stopped on the limit: no fallback, no warning
    if (!ok) {
      extract_module_tree_sitter(host, facts, i);
      Diagnostic d;
      d.rule = "engine-fallback";
      d.severity = Severity::Warning;
      d.message = "C++ facts of this " + std::string(i == 0 ? "file" : "embedded source") +
                  " come from the weaker tree-sitter-cuda engine (" + why +
                  "): names are not resolved through macros, using-declarations or templates";
      d.path = host.path;
      d.span = facts.modules[i].span.valid() ? facts.modules[i].span : host.span(0, 0);
      d.engine = "tree-sitter-cuda";
      diagnostics.push_back(std::move(d));
    }
    any_clang = any_clang || ok;
    if (merged) {
      facts.modules[i].text = std::move(saved_text);
      facts.modules[i].map = std::move(saved_map);
      facts.modules[i].joined.clear();
    }
  }
  if (facts.modules[0].language != Language::Python) facts.engine = any_clang ? "clang" : "tree-sitter-cuda";
}

namespace {

// Functions are grouped by the extension that compiles them together (raw files: group -1).
int group_of(const FactSet& f, int module) {
  if (module < 0 || module >= static_cast<int>(f.modules.size())) return -2;
  return f.modules[module].extension;
}

struct CallGraph {
  // (group, qualified name) and (group, unqualified name) -> function indices
  std::map<std::pair<int, std::string>, std::vector<int>> by_qualname, by_name;
  std::vector<std::vector<int>> calls_of, launches_of;

  explicit CallGraph(const FactSet& f) {
    calls_of.resize(f.functions.size());
    launches_of.resize(f.functions.size());
    for (int i = 0; i < static_cast<int>(f.functions.size()); ++i) {
      const auto& fn = f.functions[i];
      if (!is_cpp(f.modules[fn.module].language)) continue;
      int g = group_of(f, fn.module);
      by_qualname[{g, fn.qualname}].push_back(i);
      by_name[{g, fn.name}].push_back(i);
      // A call of a virtual method reaches the overrides the submission defines.
      for (const auto& d : fn.decorators)
        if (d.rfind("overrides:", 0) == 0) by_qualname[{g, d.substr(10)}].push_back(i);
    }
    for (int i = 0; i < static_cast<int>(f.calls.size()); ++i)
      if (f.calls[i].function >= 0) calls_of[f.calls[i].function].push_back(i);
    for (int i = 0; i < static_cast<int>(f.launches.size()); ++i)
      if (f.launches[i].function >= 0) launches_of[f.launches[i].function].push_back(i);
  }

  std::vector<int> targets(int group, const std::string& resolved) const {
    if (auto it = by_qualname.find({group, resolved}); it != by_qualname.end()) return it->second;
    if (resolved.find("::") == std::string::npos)
      if (auto it = by_name.find({group, resolved}); it != by_name.end()) return it->second;
    return {};
  }
  // The functions that a parameter handed to `callee` may land in. The tree-sitter engine names a
  // function by what its definition writes (`shaped` inside `namespace detail {}`), so
  // `detail::shaped(x)` finds it by its last component.
  std::vector<int> handover_targets(const FactSet& f, int group, const std::string& callee) const {
    std::vector<int> out = targets(group, callee);
    if (out.empty() && callee.find("::") != std::string::npos)
      for (int t : targets(group, std::string(last_component(callee))))
        if (f.functions[t].qualname.find("::") == std::string::npos) out.push_back(t);
    return out;
  }
  // The functions that a call in another C++ function reaches.
  std::vector<char> called(const FactSet& f) const {
    std::vector<char> out(f.functions.size(), 0);
    for (const auto& c : f.calls) {
      if (c.function < 0 || !is_cpp(f.modules[f.functions[c.function].module].language)) continue;
      for (int t : targets(group_of(f, f.functions[c.function].module), c.resolved))
        if (t != c.function) out[t] = 1;
    }
    return out;
  }
};

// The C++ function that an extension launch "<ext>.<fn>" reaches, or -1.
int extension_target(const FactSet& f, const CallGraph& graph, const Launch& launch) {
  auto dot = launch.kernel.rfind('.');
  if (dot == std::string::npos) return -1;
  std::string ext = launch.kernel.substr(0, dot);
  std::string fn = launch.kernel.substr(dot + 1);
  if (ext.rfind("torch.ops.", 0) == 0) {  // an op registered in a TORCH_LIBRARY block
    for (int i = 0; i < static_cast<int>(f.functions.size()); ++i)
      if (is_cpp(f.modules[f.functions[i].module].language) && has_decorator(f.functions[i], "export:" + launch.kernel))
        return i;
    return -1;
  }
  for (int e = 0; e < static_cast<int>(f.extensions.size()); ++e) {
    const auto& x = f.extensions[e];
    if (x.name != ext && x.binding != ext) continue;
    int fallback = -1;
    for (int i = 0; i < static_cast<int>(f.functions.size()); ++i) {
      const auto& func = f.functions[i];
      if (group_of(f, func.module) != e || !is_cpp(f.modules[func.module].language)) continue;
      if (has_decorator(func, "export:" + fn)) return i;
      if (func.name == fn && func.kind == FunctionKind::Host && fallback < 0) fallback = i;
    }
    if (fallback >= 0) return fallback;
  }
  (void)graph;
  return -1;
}

// What the Python calls pass to each C++ parameter that a call is made on or writes (Call::param_source):
// "input" when a reachable extension call may pass an input of the harness there, "made" when every
// reachable one passes a tensor its caller made or module state and no C++ code calls the function
// too, else unknown.
void note_param_sources(FactSet& facts, const CallGraph& graph) {
  std::map<int, std::vector<const Launch*>> callers;  // C++ function -> the Python calls reaching it
  for (const auto& l : facts.launches)
    if (l.kind == LaunchKind::Extension && l.reachable && l.kernel_function >= 0)
      callers[l.kernel_function].push_back(&l);
  if (callers.empty()) return;
  const std::vector<char> called_from_cpp = graph.called(facts);
  for (auto& c : facts.calls) {
    if (c.param_index < 0 || c.function < 0) continue;
    auto at = callers.find(c.function);
    if (at == callers.end()) continue;
    bool input = false;
    bool known = !called_from_cpp[c.function];
    for (const Launch* l : at->second) {
      const auto index = static_cast<size_t>(c.param_index);
      if (index >= l->arg_maybe_input.size())
        known = false;
      else if (l->arg_maybe_input[index])
        input = true;
    }
    c.param_source = input ? "input" : known ? "made" : "";
  }
}

// A C++ helper's unwritten return (`static torch::Tensor make_output(x) { return at::empty_like(x); }`)
// is its caller's value: when only C++ functions call the helper (nothing binds it for Python), the
// callers' returns judge it. A caller's return that came from the helper gets the helper's origins, so
// that it is flagged when the caller does not write it either; the helper's own return counts as
// written (handed on).
void returns_through_helpers(FactSet& facts, const CallGraph& graph) {
  const std::vector<char> called = graph.called(facts);
  std::vector<char> from_python(facts.functions.size(), 0);
  for (const auto& l : facts.launches)
    if (l.kind == LaunchKind::Extension && l.kernel_function >= 0) from_python[l.kernel_function] = 1;
  for (size_t f = 0; f < facts.functions.size(); ++f)
    for (const auto& d : facts.functions[f].decorators)
      if (d.rfind("export:", 0) == 0) from_python[f] = 1;
  const auto cpp_return = [&](const Return& r) {
    return r.function >= 0 && is_cpp(facts.modules[facts.functions[r.function].module].language);
  };
  std::map<int, std::vector<std::string>> handed;  // helper -> origins of its unwritten returns
  // A helper may return another helper's value: a few rounds carry the origins up the chain.
  for (int round = 0; round < 8; ++round) {
    handed.clear();
    for (const auto& r : facts.returns)
      if (cpp_return(r) && called[r.function] && !from_python[r.function] && !r.written)
        handed[r.function].insert(handed[r.function].end(), r.origins.begin(), r.origins.end());
    bool changed = false;
    for (auto& r : facts.returns) {
      if (!cpp_return(r)) continue;
      const int group = group_of(facts, facts.functions[r.function].module);
      std::vector<std::string> added;
      for (const auto& origin : r.origins)
        for (int t : graph.targets(group, origin))
          if (auto it = handed.find(t); it != handed.end() && t != r.function)
            added.insert(added.end(), it->second.begin(), it->second.end());
      for (auto& o : added)
        if (std::find(r.origins.begin(), r.origins.end(), o) == r.origins.end()) {
          r.origins.push_back(std::move(o));
          changed = true;
        }
    }
    if (!changed) break;
  }
  for (auto& r : facts.returns)
    if (handed.count(r.function)) r.written = true;
}

// Parameters that a function only hands whole to others ("param-handed:<i>:<j>:<callee>", both
// engines) are not read when every function the call may reach leaves its parameter j unread, itself
// directly or by handing it on: the greatest fixpoint, so that helpers calling each other without
// reading stay unread. Such a parameter gets "param-unread:<i>" too. A callee the file does not define
// (or one reached with too few parameters) reads.
void resolve_param_handovers(FactSet& facts, const CallGraph& graph) {
  struct Handover {
    int function;
    size_t param;
    std::vector<std::pair<int, size_t>> to;  // (callee, its parameter)
    bool unread = true;
  };
  std::vector<Handover> open;
  std::map<std::pair<int, size_t>, size_t> by_param;  // (function, parameter) -> index into open
  for (int f = 0; f < static_cast<int>(facts.functions.size()); ++f) {
    const Function& fn = facts.functions[f];
    for (const auto& d : fn.decorators) {
      size_t param = 0, position = 0;
      std::string callee;
      if (!parse_param_handed(d, param, position, callee)) continue;
      auto [it, fresh] = by_param.try_emplace({f, param}, open.size());
      if (fresh) open.push_back({f, param, {}, true});
      Handover& h = open[it->second];
      const int group = group_of(facts, fn.module);
      const std::vector<int> targets = graph.handover_targets(facts, group, callee);
      if (targets.empty()) h.unread = false;
      for (int t : targets) h.to.emplace_back(t, position);
    }
  }
  const auto unread = [&](int f, size_t param) {
    if (has_decorator(facts.functions[f], "param-unread:" + std::to_string(param))) return true;
    auto it = by_param.find({f, param});
    return it != by_param.end() && open[it->second].unread;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Handover& h : open)
      if (h.unread &&
          !std::all_of(h.to.begin(), h.to.end(), [&](const auto& t) { return unread(t.first, t.second); })) {
        h.unread = false;
        changed = true;
      }
  }
  for (const Handover& h : open)
    if (h.unread) facts.functions[h.function].decorators.push_back("param-unread:" + std::to_string(h.param));
}

// A returned local that the function only handed whole to functions (Return::handed, both engines) is
// written unless every function each hand-over may reach leaves that parameter unread
// ("param-unread:<i>", after resolve_param_handovers): a parameter that is not read is not written
// either (a write needs its data pointer, an in-place method or an assignment, all reads). A callee
// the file does not define writes.
void resolve_returned_handovers(FactSet& facts, const CallGraph& graph) {
  for (auto& r : facts.returns) {
    if (r.handed.empty()) continue;
    if (!r.written && r.function >= 0) {
      const int group = group_of(facts, facts.functions[r.function].module);
      for (const auto& [callee, position] : r.handed) {
        const std::vector<int> targets = graph.handover_targets(facts, group, callee);
        const bool unwritten = !targets.empty() && std::all_of(targets.begin(), targets.end(), [&](int t) {
          return t != r.function && has_decorator(facts.functions[t], "param-unread:" + std::to_string(position));
        });
        if (!unwritten) r.written = true;
      }
    }
    r.handed.clear();
  }
}

// Entry inputs that the Python side hands only to the submission's C++ (InputParam::extension_args):
// not read when every such argument lands in a C++ parameter that its function never reads
// ("param-unread:<i>", both engines). An argument whose call or function is unknown is a read.
void note_inputs_unread_in_cpp(FactSet& facts) {
  const auto same = [](const Span& a, const Span& b) {
    return a.line == b.line && a.col == b.col && a.end_line == b.end_line && a.end_col == b.end_col;
  };
  for (auto& in : facts.inputs) {
    if (in.read_elsewhere || in.extension_args.empty()) continue;
    std::string where;
    bool unread = true;
    for (const auto& arg : in.extension_args) {
      auto l = std::find_if(facts.launches.begin(), facts.launches.end(), [&](const Launch& launch) {
        return launch.kind == LaunchKind::Extension && same(launch.span, arg.call);
      });
      if (l == facts.launches.end() || l->kernel_function < 0 || arg.position < 0) {
        unread = false;
        break;
      }
      const Function& fn = facts.functions[l->kernel_function];
      const auto position = static_cast<size_t>(arg.position);
      if (position >= fn.params.size() || !has_decorator(fn, "param-unread:" + std::to_string(position))) {
        unread = false;
        break;
      }
      const std::string here = l->kernel + " (C++ parameter " + fn.params[position] + " of " + fn.qualname + ")";
      if (where.find(here) == std::string::npos) where += (where.empty() ? "" : ", ") + here;
    }
    if (!unread) continue;
    in.read = false;
    in.unread_in = where;
  }
}

}  // namespace

// The namespace of a TORCH_LIBRARY block from the function its macro defines (the shims' spelling):
// "TORCH_LIBRARY_init_my_ops" -> "my_ops", "TORCH_LIBRARY_IMPL_init_my_ops_CUDA" -> "my_ops"
// (dispatch keys have no underscore); "" for other functions.
static std::string library_namespace(const std::string& function) {
  for (std::string_view prefix : {"TORCH_LIBRARY_init_", "TORCH_LIBRARY_FRAGMENT_init_"})
    if (function.rfind(prefix, 0) == 0) return function.substr(prefix.size());
  constexpr std::string_view kImpl = "TORCH_LIBRARY_IMPL_init_";
  if (function.rfind(kImpl, 0) != 0) return {};
  const std::string rest = function.substr(kImpl.size());
  const auto key = rest.rfind('_');
  return key == std::string::npos ? std::string{} : rest.substr(0, key);
}

// Python calls of torch.ops.<ns>.<op> where the submission's C++ registers that op: calls of the
// registered function, like `ext.fn(...)` (extension launches, linked by extension_target).
static void link_registered_ops(FactSet& facts) {
  std::set<std::string> registered;
  for (const auto& fn : facts.functions)
    for (const auto& d : fn.decorators)
      if (d.rfind("export:torch.ops.", 0) == 0) registered.insert(d.substr(7));
  if (registered.empty()) return;
  std::vector<Launch> added;
  for (const auto& c : facts.calls) {
    if (c.module < 0 || c.module >= static_cast<int>(facts.modules.size()) ||
        is_cpp(facts.modules[c.module].language) || !registered.count(c.resolved))
      continue;
    Launch l;
    l.kind = LaunchKind::Extension;
    l.kernel = c.resolved;
    l.function = c.function;
    l.module = c.module;
    l.reachable = c.reachable;
    l.guard = c.guard;
    l.span = c.span;
    added.push_back(std::move(l));
  }
  facts.launches.insert(facts.launches.end(), added.begin(), added.end());
}

// m.def("name", &fn) / TORCH_LIBRARY m.impl("name", fn): the collector leaves the bound function in
// the call's keywords as "@bind:<qualname>"; the binding becomes an "export:<name>" decorator on
// every function of that name in the same extension (the definition may sit in another string).
static void apply_bindings(FactSet& facts) {
  for (const auto& c : facts.calls) {
    if (c.string_args.empty() || c.function < 0) continue;
    int g = group_of(facts, facts.functions[c.function].module);
    for (const auto& k : c.keywords) {
      if (k.rfind("@bind:", 0) != 0) continue;
      std::string target = k.substr(6);
      std::string op = c.string_args.front();
      // TORCH_LIBRARY schemas ("fwd(Tensor x) -> Tensor") name the op before the parenthesis.
      if (auto paren = op.find('('); paren != std::string::npos) op.resize(paren);
      std::vector<std::string> exported = {"export:" + op};
      // In a TORCH_LIBRARY block the op is also torch.ops.<ns>.<op> for Python.
      if (std::string ns = library_namespace(facts.functions[c.function].name); !ns.empty())
        exported.push_back("export:torch.ops." + ns + "." + op);
      for (auto& fn : facts.functions)
        if (fn.qualname == target && group_of(facts, fn.module) == g)
          for (const auto& e : exported)
            if (!has_decorator(fn, e)) fn.decorators.push_back(e);
    }
  }
}

void link(FactSet& facts) {
  apply_bindings(facts);
  link_registered_ops(facts);
  CallGraph graph(facts);
  const size_t n = facts.functions.size();
  std::vector<char> reach(n, 0);
  std::vector<int> work;
  auto mark = [&](int i) {
    if (i >= 0 && i < static_cast<int>(n) && !reach[i]) {
      reach[i] = 1;
      work.push_back(i);
    }
  };
  // A program's own `main` (a standalone benchmark or test driver in a kernel repository) is a root too,
  // but what only it reaches runs as a program, never under a harness: its facts get the guard of
  // Python's `if __name__ == "__main__"` (script_main), which harness-facing rules leave alone.
  std::vector<int> program_roots;

  bool python_host = !facts.modules.empty() && !is_cpp(facts.modules[0].language);
  if (python_host) {
    for (auto& launch : facts.launches) {
      if (launch.kind != LaunchKind::Extension) continue;
      launch.kernel_function = extension_target(facts, graph, launch);
      if (launch.reachable) mark(launch.kernel_function);
    }
  } else {
    // Raw repository: exported and tensor-taking host functions are the entries; without any,
    // every host function that nothing in the file calls.
    const std::vector<char> called = graph.called(facts);
    bool any_entry = false;
    // A harness that names its entry functions (GPU MODE's custom_kernel) roots reachability there.
    for (size_t i = 0; i < n; ++i) {
      const auto& f = facts.functions[i];
      if (f.kind == FunctionKind::Host && std::find(facts.cpp_entry_functions.begin(), facts.cpp_entry_functions.end(),
                                                    f.name) != facts.cpp_entry_functions.end()) {
        mark(static_cast<int>(i));
        any_entry = true;
      }
    }
    for (size_t i = 0; i < n && facts.cpp_entry_functions.empty(); ++i) {
      const auto& f = facts.functions[i];
      bool exported = std::any_of(f.decorators.begin(), f.decorators.end(),
                                  [](const std::string& d) { return d.rfind("export:", 0) == 0; });
      if (exported || has_decorator(f, "tensor-entry")) {
        mark(static_cast<int>(i));
        any_entry = true;
      } else if (f.qualname == "main") {
        program_roots.push_back(static_cast<int>(i));
        any_entry = true;
      }
    }
    if (!any_entry)
      for (size_t i = 0; i < n; ++i)
        if (facts.functions[i].kind == FunctionKind::Host && !called[i]) mark(static_cast<int>(i));
  }

  // Resolve launch targets across the modules of one extension (a kernel defined in cuda_sources,
  // launched from cpp_sources).
  for (auto& l : facts.launches) {
    if (l.kind == LaunchKind::Extension || l.kernel_function >= 0 || l.function < 0) continue;
    auto t = graph.targets(group_of(facts, facts.functions[l.function].module), l.kernel);
    if (!t.empty()) l.kernel_function = t.front();
  }

  const auto propagate = [&] {
    while (!work.empty()) {
      int f = work.back();
      work.pop_back();
      int g = group_of(facts, facts.functions[f].module);
      for (int ci : graph.calls_of[f]) {
        const auto& c = facts.calls[ci];
        if (c.guard.dead()) continue;
        for (int t : graph.targets(g, c.resolved)) mark(t);
      }
      for (int li : graph.launches_of[f]) {
        const auto& l = facts.launches[li];
        if (l.guard.dead() || l.grid_empty) continue;
        mark(l.kernel_function);
      }
    }
  };
  propagate();
  const std::vector<char> entry_reach = reach;
  for (int root : program_roots) mark(root);
  propagate();
  const auto program_only = [&](int fn) {
    return fn >= 0 && fn < static_cast<int>(n) && reach[fn] && !entry_reach[fn];
  };
  for (auto& c : facts.calls)
    if (program_only(c.function)) c.guard.script_main = true;
  for (auto& l : facts.launches)
    if (l.kind != LaunchKind::Extension && program_only(l.function)) l.guard.script_main = true;
  for (auto& w : facts.writes)
    if (program_only(w.function)) w.guard.script_main = true;

  auto cpp_function = [&](int fn) {
    return fn >= 0 && fn < static_cast<int>(n) && is_cpp(facts.modules[facts.functions[fn].module].language);
  };
  for (size_t i = 0; i < n; ++i)
    if (cpp_function(static_cast<int>(i))) facts.functions[i].reachable = reach[i];
  for (auto& c : facts.calls)
    if (cpp_function(c.function)) c.reachable = reach[c.function] && !c.guard.dead();
  for (auto& l : facts.launches)
    if (l.kind != LaunchKind::Extension && cpp_function(l.function)) l.reachable = reach[l.function] && !l.guard.dead();
  // A conversion at namespace scope (`using Mma = MMA_Atom<SM80_..._F16F16F16F16_TN>;`) belongs to the
  // code of its module: reached when any of that module's functions is.
  std::vector<char> module_reached(facts.modules.size(), 0);
  for (size_t i = 0; i < n; ++i)
    if (cpp_function(static_cast<int>(i)) && reach[i]) module_reached[facts.functions[i].module] = 1;
  for (auto& c : facts.casts) {
    if (cpp_function(c.function))
      c.reachable = reach[c.function];
    else if (c.function < 0 && c.module >= 0 && c.module < static_cast<int>(facts.modules.size()) &&
             is_cpp(facts.modules[c.module].language))
      c.reachable = module_reached[c.module];
  }
  for (auto& r : facts.returns)
    if (cpp_function(r.function)) r.reachable = reach[r.function];
  for (auto& w : facts.writes)
    if (cpp_function(w.function)) w.reachable = reach[w.function] && !w.guard.dead();
  for (auto& nm : facts.names)
    if (cpp_function(nm.function)) nm.reachable = reach[nm.function];
  resolve_param_handovers(facts, graph);
  resolve_returned_handovers(facts, graph);
  returns_through_helpers(facts, graph);
  if (python_host) {
    note_param_sources(facts, graph);
    note_inputs_unread_in_cpp(facts);
  }
}

std::vector<int> missing_extension_functions(const FactSet& facts) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(facts.launches.size()); ++i) {
    const auto& l = facts.launches[i];
    if (l.kind != LaunchKind::Extension || l.kernel_function >= 0) continue;
    auto dot = l.kernel.rfind('.');
    std::string ext = dot == std::string::npos ? l.kernel : l.kernel.substr(0, dot);
    for (int e = 0; e < static_cast<int>(facts.extensions.size()); ++e) {
      const auto& x = facts.extensions[e];
      if ((x.name != ext && x.binding != ext) || x.sources_unresolved) continue;
      bool has_sources = std::any_of(facts.modules.begin(), facts.modules.end(),
                                     [&](const Module& m) { return m.extension == e && is_cpp(m.language); });
      if (has_sources) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

std::vector<BrokenLink> broken_links(const FactSet& facts) {
  std::vector<BrokenLink> out;
  std::vector<int> missing = missing_extension_functions(facts);
  CallGraph graph(facts);
  for (int i = 0; i < static_cast<int>(facts.launches.size()); ++i) {
    const Launch& l = facts.launches[i];
    if (l.kind != LaunchKind::Extension || !l.reachable) continue;
    BrokenLink b;
    b.launch = i;
    b.span = l.span;
    if (std::find(missing.begin(), missing.end(), i) != missing.end()) {
      b.kind = "function-missing";
      b.message = "forward calls " + l.kernel + ", but the extension's C++ sources define no function " +
                  std::string(last_component(l.kernel));
      out.push_back(std::move(b));
      continue;
    }
    if (l.kernel_function < 0) continue;  // sources unreadable: nothing to prove
    // Walk the C++ side from the bound function: live calls and live launches only.
    std::vector<char> seen(facts.functions.size(), 0);
    std::vector<int> work = {l.kernel_function};
    seen[l.kernel_function] = 1;
    int live_launches = 0, writing_kernels = 0, launches_total = 0;
    std::string silent_kernel;
    while (!work.empty()) {
      int f = work.back();
      work.pop_back();
      int g = group_of(facts, facts.functions[f].module);
      for (int ci : graph.calls_of[f]) {
        const Call& c = facts.calls[ci];
        if (c.guard.dead()) continue;
        for (int t : graph.targets(g, c.resolved))
          if (!seen[t]) {
            seen[t] = 1;
            work.push_back(t);
          }
      }
      for (int li : graph.launches_of[f]) {
        const Launch& cl = facts.launches[li];
        ++launches_total;
        if (cl.guard.dead() || cl.grid_empty) continue;
        ++live_launches;
        if (cl.kernel_function < 0) {
          ++writing_kernels;  // a kernel defined elsewhere (a header): assume it writes
          continue;
        }
        const Function& k = facts.functions[cl.kernel_function];
        if (has_decorator(k, "no-pointer-write"))
          silent_kernel = k.qualname;
        else
          ++writing_kernels;
      }
    }
    const std::string& fn = facts.functions[l.kernel_function].qualname;
    if (live_launches == 0) {
      b.kind = "no-live-launch";
      b.message = "forward calls " + l.kernel + " -> C++ " + fn + ", which " +
                  (launches_total == 0 ? std::string("launches no kernel")
                                       : "launches kernels only on dead paths or with zero-block grids");
    } else if (writing_kernels == 0) {
      b.kind = "kernel-writes-nothing";
      b.message = "forward calls " + l.kernel + " -> C++ " + fn + " -> kernel " + silent_kernel +
                  ", which never writes through a pointer parameter";
    } else {
      continue;
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace kgate::cuda
