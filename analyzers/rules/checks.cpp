// C++ checks, registered in one list at the bottom of this file: read it top to bottom.
#include "analyzers/rules/checks.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <tuple>

#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

namespace {

// Rules about the entry apply to candidates: never to the harness's own reference file.
bool candidate(const FactSet& facts) { return !facts.harness_reference; }

Diagnostic finding(const Rule& rule, std::string message, Span span) {
  Diagnostic d;
  d.rule = rule.id;
  d.severity = rule.severity;
  d.message = std::move(message);
  d.span = span.valid() ? span : Span{1, 1, 1, 1};
  return d;
}

std::string join_first(const std::vector<std::string>& names, size_t limit) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > limit) out += ", and " + std::to_string(names.size() - limit) + " more";
  return out;
}

// F1/F2: the submission must reach a kernel of its own. A forward that reaches only PyTorch ops,
// or whose launches all sit in dead code, computes nothing custom.
// The reachable calls into modules the submission imports that are not here (Import::missing).
std::vector<const Call*> calls_into_missing_modules(const FactSet& facts) {
  std::vector<std::string> prefixes;
  for (const Import& im : facts.imports) {
    if (!im.missing) continue;
    std::string_view base = im.module;
    while (!base.empty() && base.front() == '.') base.remove_prefix(1);
    prefixes.push_back(std::string(base) + ".");
    if (!im.name.empty() && base.empty()) prefixes.push_back(im.name + ".");
  }
  std::vector<const Call*> out;
  if (prefixes.empty()) return out;
  for (const Call& c : facts.calls) {
    if (!c.reachable || c.local_target) continue;
    std::string_view resolved = c.resolved;
    while (!resolved.empty() && resolved.front() == '.') resolved.remove_prefix(1);
    if (std::any_of(prefixes.begin(), prefixes.end(),
                    [&](const std::string& p) { return resolved.substr(0, p.size()) == p; }))
      out.push_back(&c);
  }
  return out;
}

std::vector<Diagnostic> forward_reaches_no_kernel(const FactSet& facts, const Rule& rule, const Policy&) {
  if (!candidate(facts) || facts.entry < 0 || facts.entry >= static_cast<int>(facts.functions.size())) return {};
  // The entry hands its work to a helper module that is not here: entry-helper-missing says so.
  if (!calls_into_missing_modules(facts).empty()) return {};
  // A launch only under `if self.training` runs in one mode of the module and not the other: it is
  // not proof that forward computes with the kernel (F2).
  if (std::any_of(facts.launches.begin(), facts.launches.end(),
                  [](const Launch& l) { return l.reachable && !l.guard.training; }))
    return {};

  const Function& entry = facts.functions[facts.entry];
  std::vector<std::string> reached;
  for (const auto& call : facts.calls) {
    if (!call.reachable || call.local_target || call.resolved.empty()) continue;
    if (std::find(reached.begin(), reached.end(), call.resolved) == reached.end()) reached.push_back(call.resolved);
  }
  std::string message = entry.qualname + " reaches no custom kernel launch";
  if (!facts.launches.empty())
    message += " (" + std::to_string(facts.launches.size()) + " launch" +
               (facts.launches.size() == 1 ? " is" : "es are") + " in unreachable or dead code)";
  message += reached.empty() ? "; it calls nothing" : "; it calls " + join_first(reached, 5);
  return {finding(rule, std::move(message), entry.span)};
}

// The entry calls into a module of the submission that is not beside it: what runs there cannot be
// followed, so the file is unjudged (pipeline.cpp's verdict), and this says which module to supply.
std::vector<Diagnostic> entry_helper_missing(const FactSet& facts, const Rule& rule, const Policy&) {
  if (!candidate(facts) || facts.entry < 0) return {};
  const std::vector<const Call*> calls = calls_into_missing_modules(facts);
  if (calls.empty()) return {};
  std::vector<std::string> names;
  for (const Call* c : calls)
    if (std::find(names.begin(), names.end(), c->resolved) == names.end()) names.push_back(c->resolved);
  return {finding(rule,
                  facts.functions[facts.entry].qualname + " calls " + join_first(names, 3) +
                      " from a module of the submission that is not beside this file: the gate cannot follow it "
                      "(check the submission's directory with `kgate check --submission DIR`)",
                  calls.front()->span)};
}

// A KernelBench submission is judged through ModelNew; without it the harness runs something else.
// Reported at the first nn.Module subclass (usually the renamed model, and a line a suppression
// can name), else at line 1.
std::vector<Diagnostic> modelnew_missing(const FactSet& facts, const Rule& rule, const Policy&) {
  if (!candidate(facts) || facts.harness != "kernelbench" || facts.entry != -1) return {};
  const bool has_modelnew =
      std::any_of(facts.classes.begin(), facts.classes.end(), [](const ClassDef& c) { return c.name == "ModelNew"; });
  if (has_modelnew) return {};
  // ModelNew bound to what a call makes (`ModelNew = type(...)`): entry-class-replaced judges the binding.
  for (const Call& c : facts.calls)
    if (c.callee == "ModelNew" &&
        std::find(c.keywords.begin(), c.keywords.end(), "@replaces-entry") != c.keywords.end())
      return {};
  const auto module_class = std::find_if(facts.classes.begin(), facts.classes.end(), [](const ClassDef& c) {
    return !c.alias && std::any_of(c.bases.begin(), c.bases.end(), [](const std::string& base) {
      return base == "torch.nn.Module" || base == "torch.nn.modules.module.Module";
    });
  });
  if (module_class == facts.classes.end())
    return {finding(rule,
                    "no class ModelNew: a KernelBench submission must define ModelNew(nn.Module) with a forward method",
                    {1, 1, 1, 1})};
  return {finding(
      rule,
      "no class ModelNew: the harness looks for ModelNew, and this module defines " + module_class->name + " instead",
      module_class->span)};
}

// T19: a file whose harness entry cannot be found is never a pass. Without an entry no
// reachability rule can say anything about it, so it is `unjudged` (pipeline.cpp's verdict), and this
// finding says why. Reported at the first top-level definition (a line a suppression can name), else
// at line 1. The KernelBench profile's missing ModelNew is modelnew-missing's.
std::vector<Diagnostic> entry_not_found(const FactSet& facts, const Rule& rule, const Policy&) {
  if (!candidate(facts) || facts.entry >= 0 || facts.harness_without_entry != "unjudged" ||
      facts.harness == "kernelbench")
    return {};
  // An entry the module binds to something other than its own function (`custom_kernel = torch.relu`)
  // is there: entry-class-replaced judges the binding.
  for (const Call& c : facts.calls)
    if (std::find(c.keywords.begin(), c.keywords.end(), "@entry-function") != c.keywords.end()) return {};
  Span at{1, 1, 1, 1};
  bool placed = false;
  const auto earlier = [&](const Span& s) {
    if (!s.valid() || (placed && std::tie(at.line, at.col) <= std::tie(s.line, s.col))) return;
    at = s;
    placed = true;
  };
  for (const ClassDef& c : facts.classes) earlier(c.span);
  for (const Function& f : facts.functions)
    if (f.parent < 0 && f.class_name.empty() && f.module == 0 && f.kind != FunctionKind::Lambda) earlier(f.span);
  std::string message;
  if (facts.harness.empty()) {
    message =
        "no harness entry found (a KernelBench class ModelNew, a class Model, GPU MODE's custom_kernel, or an "
        "output-argument "
        "solve/solution function): the file is unjudged, never a pass; name its harness with --harness or `harness:` "
        "in .kgate.yaml, or the functions its harness calls with `entry_functions:` in .kgate.yaml";
  } else {
    message = "the " + facts.harness + " harness enters through " +
              (facts.harness_entry.empty() ? "an entry" : facts.harness_entry) +
              ", which this file does not define: the file is unjudged, never a pass";
  }
  return {finding(rule, std::move(message), at)};
}

// F2: kernels that exist only to be seen. A Triton or Numba kernel or an exported extension function
// that forward never launches makes a submission look custom while PyTorch does the work.
std::vector<Diagnostic> decoy_kernel_unlaunched(const FactSet& facts, const Rule& rule, const Policy&) {
  // Reachability means nothing without an entry point (a library module, a task file).
  if (facts.entry < 0) return {};
  std::vector<Diagnostic> out;
  for (size_t i = 0; i < facts.functions.size(); ++i) {
    const Function& fn = facts.functions[i];
    // Triton and Numba kernels. (CuTe DSL kernels are launched through objects whose __call__ a
    // compiled handle runs, which the facts do not follow yet: judging them here would be noise.)
    const bool numba = fn.kind == FunctionKind::DslKernel &&
                       std::any_of(fn.decorators.begin(), fn.decorators.end(),
                                   [](const std::string& d) { return d.rfind("numba.", 0) == 0; });
    if ((fn.kind != FunctionKind::TritonJit && !numba) || fn.reachable) continue;
    const bool launched = std::any_of(facts.launches.begin(), facts.launches.end(), [&](const Launch& l) {
      return l.reachable && (l.kernel_function == static_cast<int>(i) || l.kernel == fn.qualname);
    });
    // A @triton.jit helper called from a launched kernel is device code, not a decoy.
    const bool called = std::any_of(facts.calls.begin(), facts.calls.end(), [&](const Call& c) {
      return c.reachable && c.local_target && c.resolved == fn.qualname;
    });
    if (launched || called) continue;
    const std::string what = fn.kind == FunctionKind::TritonJit ? "Triton kernel " : "Numba kernel ";
    out.push_back(finding(rule, what + fn.qualname + " is defined but never launched from forward", fn.span));
  }
  for (const auto& ext : facts.extensions) {
    const std::string& prefix = ext.name.empty() ? ext.binding : ext.name;
    for (const auto& function : ext.functions) {
      const std::string kernel = prefix + "." + function;
      const bool launched = std::any_of(facts.launches.begin(), facts.launches.end(),
                                        [&](const Launch& l) { return l.reachable && l.kernel == kernel; });
      if (!launched)
        out.push_back(
            finding(rule, "extension function " + kernel + " is exported but forward never calls it", ext.span));
    }
  }
  return out;
}

// F2 across languages: Python mod.fn(...) -> the C++ function fn -> a live launch -> a kernel that
// writes memory. The C++ analyzer's link step (analyzers/cuda) proves each chain; this reports the
// first link that breaks, at the Python call.
std::vector<Diagnostic> extension_function_missing(const FactSet& facts, const Rule& rule, const Policy&) {
  std::vector<Diagnostic> out;
  for (const cuda::BrokenLink& broken : cuda::broken_links(facts))
    out.push_back(finding(rule, broken.message, broken.span));
  return out;
}

// Whether `text` names `function` as a C++ declarator or call: the identifier, then `(`.
bool declares(std::string_view text, std::string_view function) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(function); at != std::string_view::npos; at = text.find(function, at + 1)) {
    if (at > 0 && ident(text[at - 1])) continue;
    size_t after = at + function.size();
    if (after < text.size() && ident(text[after])) continue;
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
    if (after < text.size() && text[after] == '(') return true;
  }
  return false;
}

// F1 through a build failure: load_inline(functions=[...]) generates a binding module that declares
// nothing itself, so each listed function must be declared in cpp_sources, and the sources must not
// define their own PYBIND11_MODULE next to the generated one. Otherwise the extension cannot build,
// and a try/except (or a crash the harness tolerates) leaves PyTorch doing the work.
std::vector<Diagnostic> extension_cannot_build(const FactSet& facts, const Rule& rule, const Policy&) {
  std::vector<Diagnostic> out;
  for (size_t e = 0; e < facts.extensions.size(); ++e) {
    const Extension& ext = facts.extensions[e];
    if (ext.functions.empty() || ext.sources_unresolved || ext.loader != "torch.utils.cpp_extension.load_inline")
      continue;
    std::string cpp_text;
    bool own_module = false, cpp_seen = false, from_file = false;
    for (const Module& m : facts.modules) {
      if (m.extension != static_cast<int>(e)) continue;
      if (m.text.find("PYBIND11_MODULE") != std::string::npos) own_module = true;
      if (m.role == "cpp_sources") cpp_seen = true, cpp_text += m.text + "\n";
      if (m.role == "load-file") from_file = true;
    }
    // Sources read from sibling files (which of them was cpp_sources is not kept), cpp_sources not seen
    // at all, or cpp_sources that include a header of their own (which may declare the functions):
    // nothing to prove.
    if (from_file || !cpp_seen || cpp_text.find("#include \"") != std::string::npos) continue;
    const std::string name = ext.name.empty() ? ext.binding : ext.name;
    if (own_module) {
      out.push_back(finding(rule,
                            "load_inline " + name +
                                ": functions=[...] generates a PYBIND11_MODULE and the sources define their own, so "
                                "the extension cannot build",
                            ext.span));
      continue;
    }
    std::vector<std::string> undeclared;
    for (const std::string& f : ext.functions)
      if (!declares(cpp_text, f)) undeclared.push_back(f);
    if (!undeclared.empty())
      out.push_back(finding(rule,
                            "load_inline " + name + ": functions=[...] lists " + join_first(undeclared, 4) +
                                ", which cpp_sources does not declare, so the generated binding cannot compile",
                            ext.span));
  }
  return out;
}

// Several module-level bindings of the entry's name, some of them conditional: Python binds whichever
// the run reaches last, so the harness may get a definition other than the one the gate judged.
// Reported once, at the first conditional definition. Unconditional redefinitions are plain Python
// (the last one wins, and it is the one judged).
std::vector<Diagnostic> entry_defined_conditionally(const FactSet& facts, const Rule& rule, const Policy&) {
  std::vector<Diagnostic> out;
  std::vector<std::string> reported;
  for (const auto& d : facts.entry_definitions) {
    if (!d.conditional || std::find(reported.begin(), reported.end(), d.name) != reported.end()) continue;
    reported.push_back(d.name);
    std::string lines;
    size_t n = 0;
    for (const auto& other : facts.entry_definitions)
      if (other.name == d.name) {
        lines += (n++ ? ", " : "") + std::to_string(other.span.line);
      }
    out.push_back(finding(rule,
                          d.name + " is bound " + std::to_string(n) + " times at module level (lines " + lines +
                              "), some under a condition: which one the harness gets depends on the run, and the "
                              "gate can judge only one",
                          d.span));
  }
  return out;
}

// The registry. Order is the order of evaluation and of `kgate rules` documentation.
constexpr std::array<CheckEntry, 10> kChecks = {{
    {"forward-reaches-no-kernel", &forward_reaches_no_kernel, "the harness's entry reaches no live kernel launch"},
    {"modelnew-missing", &modelnew_missing, "a KernelBench submission defines no class ModelNew"},
    {"entry-not-found", &entry_not_found, "the harness's entry is not in the file: it is unjudged, never a pass"},
    {"entry-helper-missing", &entry_helper_missing,
     "the entry calls a module of the submission that is not there: it is unjudged, never a pass"},
    {"entry-defined-conditionally", &entry_defined_conditionally,
     "the harness's entry is bound several times, some under a condition"},
    {"decoy-kernel-unlaunched", &decoy_kernel_unlaunched, "a kernel is defined or exported but never launched"},
    {"extension-function-missing", &extension_function_missing,
     "an extension call's C++ chain to a writing kernel is broken"},
    {"extension-cannot-build", &extension_cannot_build,
     "a load_inline extension whose generated binding cannot compile"},
    {"ingest", nullptr, "findings produced by ingest (input-*): emitted by the pipeline"},
    {"suppressions", nullptr, "findings about suppression comments: emitted by the pipeline"},
}};

}  // namespace

std::span<const CheckEntry> check_registry() { return kChecks; }

const CheckEntry* find_check(std::string_view name) {
  for (const auto& entry : kChecks)
    if (entry.name == name) return &entry;
  return nullptr;
}

}  // namespace kgate
