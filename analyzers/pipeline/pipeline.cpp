// The per-file pipeline: ingest, facts by file kind, rules, suppressions, fingerprints, verdict.
#include "analyzers/pipeline/pipeline.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/core/budget.h"
#include "analyzers/core/config.h"
#include "analyzers/core/file_text.h"
#include "analyzers/core/fingerprint.h"
#include "analyzers/core/suppressions.h"
#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/ingest/bundle.h"
#include "analyzers/metrics/cpp_metrics.h"
#include "analyzers/metrics/metrics_json.h"
#include "analyzers/metrics/python_metrics.h"
#include "analyzers/pipeline/contract.h"
#include "analyzers/pipeline/evaluator.h"
#include "analyzers/pipeline/imported_modules.h"
#include "analyzers/pipeline/inspect.h"
#include "analyzers/pipeline/pipeline_finding.h"
#include "analyzers/ptx/witness.h"
#include "analyzers/python/python_facts.h"
#include "analyzers/rules/engine.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"

namespace kgate {

namespace {

const Policy& empty_policy() {
  static const Policy policy;
  return policy;
}

const RuleSet& empty_rules() {
  static const RuleSet rules;
  return rules;
}

// What an output-argument entry in C++ (LeetGPU's `extern "C" void solve(const float* A, float* C, int
// N)`) is handed in parameter `index`: an output, by the profile's names or the --task's (positions,
// or the names its get_solve_signature declares out or inout); an input, as a pointer to const, or with
// --task an "in" pointer or a parameter before the output positions; else unknown (a writable pointer
// with another name may be either).
enum class EntryParam { Unknown, Input, Output };
EntryParam entry_param(const Function& f, size_t index, const HarnessProfile& profile, const HarnessChoice& choice) {
  if (index >= f.params.size()) return EntryParam::Unknown;
  const auto& positions = choice.output_positions;
  const std::string& name = f.params[index];
  auto named = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (profile.output_parameter(name) || named(choice.output_names) ||
      (positions && index >= positions->first && index < positions->first + positions->second))
    return EntryParam::Output;
  if ((index < f.params_const.size() && f.params_const[index]) || named(choice.input_names) ||
      (positions && index < positions->first))
    return EntryParam::Input;
  return EntryParam::Unknown;
}

// The facts of a C-linkage output-argument entry's parameters, once cuda::link has decided which of
// them the entry reads ("param-unread:<i>", through helpers it hands them to): an output fact per
// output pointer (written unless unread: writing needs its data pointer), an input fact per input
// pointer, and for each cudaMemset/cudaMemcpy of the entry into one, the call's param_source ("input",
// or "made" for an output), which cpp-input-mutation reads.
void note_c_entry_params(FactSet& facts, const HarnessProfile& profile, const HarnessChoice& choice) {
  auto c_entry = [&](int fn) {
    if (fn < 0 || fn >= static_cast<int>(facts.functions.size())) return false;
    const Function& f = facts.functions[static_cast<size_t>(fn)];
    const auto& entries = facts.cpp_entry_functions;
    return f.kind == FunctionKind::Host && std::find(entries.begin(), entries.end(), f.name) != entries.end() &&
           std::find(f.decorators.begin(), f.decorators.end(), "extern-c") != f.decorators.end();
  };
  for (Call& c : facts.calls) {
    if (!c.writes_param || c.param_index < 0 || !c_entry(c.function)) continue;
    const EntryParam role = entry_param(facts.functions[static_cast<size_t>(c.function)],
                                        static_cast<size_t>(c.param_index), profile, choice);
    if (role != EntryParam::Unknown) c.param_source = role == EntryParam::Output ? "made" : "input";
  }
  for (int fn = 0; fn < static_cast<int>(facts.functions.size()); ++fn) {
    if (!c_entry(fn)) continue;
    const Function& f = facts.functions[static_cast<size_t>(fn)];
    for (size_t i = 0; i < f.params.size(); ++i) {
      // A parameter the engines do not judge (a scalar, a body they could not read whole) has no
      // "param-unread" decorator: read and written.
      const EntryParam role = entry_param(f, i, profile, choice);
      if (role == EntryParam::Unknown) continue;
      const bool unread = std::find(f.decorators.begin(), f.decorators.end(), "param-unread:" + std::to_string(i)) !=
                          f.decorators.end();
      if (role == EntryParam::Output) {
        OutputParam o;
        o.name = f.params[i];
        o.function = fn;
        o.written = !unread;
        o.reachable = f.reachable;
        o.span = f.span;
        facts.outputs.push_back(std::move(o));
      } else {
        InputParam in;
        in.name = f.params[i];
        in.function = fn;
        in.read = !unread;
        in.reachable = f.reachable;
        in.span = f.span;
        facts.inputs.push_back(std::move(in));
      }
    }
  }
}

// The harness profile of a raw C++/CUDA file, from its includes (GPU MODE's task.h) once its facts
// are extracted; the profile's entry functions become the roots of the C++ reachability (link).
void apply_cpp_harness(const SourceFile& file, FactSet& facts, const HarnessChoice& choice) {
  ModuleOutline outline;
  outline.python = false;
  outline.file_name = std::filesystem::path(file.path).filename().string();
  for (const Import& im : facts.imports) outline.includes.push_back(im.module);
  for (const Function& f : facts.functions) {
    if (f.kind == FunctionKind::CudaGlobal) outline.own_kernels = true;
    if (f.kind == FunctionKind::Host && f.parent < 0) outline.functions.push_back(f.name);
    if (f.kind == FunctionKind::Host &&
        std::find(f.decorators.begin(), f.decorators.end(), "extern-c") != f.decorators.end())
      outline.c_functions.push_back(f.name);
  }
  const HarnessProfile* profile = choice.select(outline);
  // The harness's own headers (task.h, reference.cuh) are claimed by the profile that names them
  // before the repository profile, which claims every other C++ file.
  if (const HarnessProfile* naming = choice.naming_reference(outline.file_name);
      naming && (!profile || profile->without_entry == WithoutEntry::Judged))
    profile = naming;
  if (!profile) {
    facts.harness_without_entry = "judged";  // a C++ file no profile claims is judged as repository code
    return;
  }
  facts.harness = profile->name;
  facts.harness_without_entry = std::string(to_string(profile->without_entry));
  facts.harness_reference = profile->names_reference(outline.file_name);
  facts.cpp_entry_functions = profile->entry_functions;
  // `#include "task.h"` is the harness's own header for submissions; "reference.cuh" is its checker.
  for (Import& im : facts.imports) {
    const std::string name = std::filesystem::path(im.module).filename().string();
    im.harness_allowed = profile->allows_import(name);
    im.harness_forbidden = !im.harness_allowed && profile->forbids_import(name);
  }
  // A header the harness provides for the types may define its reference too (GPU MODE's first
  // reference.cuh): a plain call of one of those functions, not defined here, reaches for it.
  const auto& named = profile->reference_functions;
  for (Call& c : facts.calls)
    c.harness_reference = c.receiver == ReceiverKind::None &&
                          std::find(named.begin(), named.end(), c.callee) != named.end() &&
                          std::none_of(facts.functions.begin(), facts.functions.end(),
                                       [&](const Function& f) { return f.name == c.callee; });
  for (const auto& extra : choice.extra_entry_functions) facts.cpp_entry_functions.push_back(extra);
  for (const auto& name : facts.cpp_entry_functions)
    facts.harness_entry += (facts.harness_entry.empty() ? "" : " or ") + name;
}

// Sources a Python submission keeps in sibling files (load(sources=[...]), or load_inline sources read
// with open().read() / read_text()): read from the submission's directory and analysed like embedded
// strings. Findings in them point at the load call. A file that is not there, or too large, leaves
// the extension unresolved (extension-sources-unresolved), never a crash or a pass.
void read_sibling_sources(const SourceFile& file, FactSet& facts, const ingest::Limits& limits,
                          const std::vector<std::pair<std::string, std::string>>& sidecars,
                          std::vector<std::string>& read) {
  const std::filesystem::path dir = std::filesystem::path(file.path).parent_path();
  for (size_t e = 0; e < facts.extensions.size(); ++e) {
    Extension& ext = facts.extensions[e];
    for (const std::string& name : ext.source_files) {
      std::string relative = name;
      if (relative.rfind(kSubmissionDir, 0) == 0)
        relative = relative.substr(std::min(relative.size(), kSubmissionDir.size() + 1));
      const std::filesystem::path path =
          std::filesystem::path(relative).is_absolute() ? std::filesystem::path(relative) : dir / relative;
      std::optional<std::string> text;
      // A bundle's sidecar stands in for the sibling file of the same name.
      for (const auto& [sidecar, sidecar_text] : sidecars)
        if (sidecar == path.filename().string()) text = sidecar_text;
      std::error_code ec;
      if (!text) {
        const auto size = std::filesystem::file_size(path, ec);
        if (!ec && size <= limits.max_file_bytes) text = read_file_text(path);
        if (text) read.push_back(path.lexically_normal().string());
      }
      if (!text) {
        ext.sources_unresolved = true;
        continue;
      }
      const uint32_t at = file.lines.line_range(ext.span.line).first + (ext.span.col > 0 ? ext.span.col - 1 : 0);
      Module m;
      const std::string suffix = path.extension().string();
      m.language = suffix == ".cu" || suffix == ".cuh" ? Language::Cuda : Language::Cpp;
      m.role = "load-file";
      for (size_t i = 0; i < text->size(); ++i) m.map.append(at);
      m.text = std::move(*text);
      m.span = ext.span;
      m.extension = static_cast<int>(e);
      facts.modules.push_back(std::move(m));
    }
  }
}

// The PYBIND11_MODULE names of a directory's first 64 C++ files, sorted by file name. Memoised per
// directory and its modification time (which changes when files come or go): a batch judges many
// Python files of one folder, and each would otherwise read the folder's C++ files again.
template <typename NameOf>
std::shared_ptr<const std::vector<python::SiblingModule>> directory_modules(const std::filesystem::path& dir,
                                                                            const ingest::Limits& limits,
                                                                            const NameOf& module_name) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::filesystem::file_time_type>,
                  std::shared_ptr<const std::vector<python::SiblingModule>>>
      memo;
  std::error_code ec;
  const auto key = std::make_pair(dir.string(), std::filesystem::last_write_time(dir, ec));
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  auto modules = std::make_shared<std::vector<python::SiblingModule>>();
  size_t read = 0;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end && read < 64; it.increment(ec)) {
    const std::string suffix = it->path().extension().string();
    if (suffix != ".cu" && suffix != ".cpp" && suffix != ".cc" && suffix != ".cxx") continue;
    if (!it->is_regular_file(ec) || it->file_size(ec) > limits.max_file_bytes) continue;
    ++read;
    if (auto text = read_file_text(it->path()))
      if (std::string module = module_name(*text); !module.empty())
        modules->push_back({module, it->path().filename().string()});
  }
  std::sort(modules->begin(), modules->end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  std::lock_guard<std::mutex> lock(mutex);
  return memo.emplace(key, std::move(modules)).first->second;
}

// The compiled modules that C++ files beside a Python submission define (PYBIND11_MODULE(name, m)),
// a bundle's sidecars standing in for files of the same name. A harness that builds the submission's
// directory (KernelBench's ThunderKittens backend) makes them importable as `import name`. A
// directory's first 64 C++ files are read.
std::vector<python::SiblingModule> sibling_modules(const std::string& path,
                                                   const std::vector<std::pair<std::string, std::string>>& sidecars,
                                                   const ingest::Limits& limits) {
  const auto module_name = [](const std::string& text) -> std::string {
    constexpr std::string_view kMacro = "PYBIND11_MODULE";
    for (size_t at = text.find(kMacro); at != std::string::npos; at = text.find(kMacro, at + 1)) {
      size_t i = at + kMacro.size();
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i >= text.size() || text[i] != '(') continue;
      ++i;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      std::string name = text.substr(i, end - i);
      // TORCH_EXTENSION_NAME is the name the build chooses: no import statement can be matched to it.
      if (!name.empty() && name != "TORCH_EXTENSION_NAME") return name;
    }
    return {};
  };
  std::vector<python::SiblingModule> found;
  for (const auto& [name, text] : sidecars)
    if (std::string module = module_name(text); !module.empty()) found.push_back({module, name});
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return found;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  for (const auto& m : *directory_modules(dir.empty() ? "." : dir, limits, module_name))
    if (std::none_of(found.begin(), found.end(), [&](const auto& f) { return f.file == m.file; })) found.push_back(m);
  return found;
}

// Where no --task names an output-argument entry's outputs: the harness's own reference beside the
// file that declares them (LeetGPU's challenge.py, get_solve_signature), read once per batch, as the
// reference beside a file gives its dtype contract. Otherwise the outputs are the profile's names alone.
HarnessChoice with_outputs_beside(const std::string& path, const AnalysisContext& context) {
  HarnessChoice choice = context.harness;
  if (choice.output_positions || !choice.output_names.empty()) return choice;
  const HarnessSet& set = choice.set ? *choice.set : default_harnesses();
  for (const HarnessProfile& profile : set.profiles()) {
    if (profile.outputs.empty()) continue;
    for (const std::string& name : profile.reference_files)
      if (const auto found = summary_beside(path, name, context); found && !found->output_names.empty()) {
        name_entry_parameters(*found, choice);
        return choice;
      }
  }
  return choice;
}

// C++/CUDA facts: for a raw .cu/.cpp file (module 0 is created from the host), and for the C++
// strings a Python submission embeds (modules the Python extractor added). Then the cross-language
// link marks what Python's extension calls reach.
void extract_cpp_facts(const SourceFile& file, FactSet& facts, std::vector<Diagnostic>& diagnostics,
                       const AnalysisContext& context, const HarnessChoice& harness) {
  const bool raw_cpp = facts.modules.empty();
  if (context.cpp_engine == "none") {
    if (raw_cpp) apply_cpp_harness(file, facts, harness);
    return;
  }
  const bool has_cpp = raw_cpp || std::any_of(facts.modules.begin(), facts.modules.end(), [](const Module& m) {
                         return m.language == Language::Cuda || m.language == Language::Cpp;
                       });
  if (!has_cpp) return;
  cuda::CudaOptions options;
  options.force_tree_sitter = context.cpp_engine == "tree-sitter";
  options.compile_commands = context.compile_commands;
  cuda::extract_facts(file, facts, diagnostics, options);
  if (raw_cpp) apply_cpp_harness(file, facts, harness);
  cuda::link(facts);
  if (raw_cpp && !facts.harness.empty()) {
    const HarnessSet& set = harness.set ? *harness.set : default_harnesses();
    if (const HarnessProfile* profile = set.find(facts.harness); profile && !profile->outputs.empty())
      note_c_entry_params(facts, *profile, harness);
  }
  if (context.ptx != "off") ptx::witness(file, facts, diagnostics);
  if (raw_cpp && !facts.cpp_entry_functions.empty()) {
    for (size_t i = 0; i < facts.functions.size() && facts.entry < 0; ++i) {
      const Function& f = facts.functions[i];
      if (f.kind == FunctionKind::Host && f.reachable &&
          std::find(facts.cpp_entry_functions.begin(), facts.cpp_entry_functions.end(), f.name) !=
              facts.cpp_entry_functions.end())
        facts.entry = static_cast<int>(i);
    }
    if (facts.entry >= 0) facts.entries.push_back(facts.entry);
  }
}

size_t count_lines(const std::string& text) {
  if (text.empty()) return 0;
  const auto newlines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (text.back() == '\n' ? 0 : 1);
}

// pass / reject / unjudged / not-a-submission. A file whose entry the harness could not find is
// unjudged unless a rule rejected it outright; a kernel module without an entry is not-a-submission.
std::string verdict_of(const FactSet& facts, const std::vector<Diagnostic>& findings, bool analysed) {
  // Findings that say the file cannot be judged (its entry, or a helper its entry calls, is not here).
  const auto cannot_judge = [](const Diagnostic& d) {
    return d.rule == "entry-not-found" || (d.rule == "entry-helper-missing" && d.severity == Severity::Error);
  };
  const auto rejects = [&](const Diagnostic& d) { return d.severity == Severity::Error && !cannot_judge(d); };
  if (std::any_of(findings.begin(), findings.end(), rejects)) return "reject";
  if (!analysed) return "unjudged";  // unreadable, empty or over a limit without an error finding
  if (facts.harness_reference) return "not-a-submission";
  if (facts.entry >= 0 || facts.harness_without_entry == "judged")
    return std::any_of(findings.begin(), findings.end(), cannot_judge) ? "unjudged" : "pass";
  if (facts.harness_without_entry == "not-a-submission") return "not-a-submission";
  return "unjudged";
}

nlohmann::json basic_metrics(const std::optional<SourceFile>& source, const FactSet& facts) {
  const size_t reachable_launches = static_cast<size_t>(
      std::count_if(facts.launches.begin(), facts.launches.end(), [](const Launch& l) { return l.reachable; }));
  return {{"lines", source ? count_lines(source->text) : 0},
          {"bytes", source ? source->text.size() : 0},
          {"functions", facts.functions.size()},
          {"calls", facts.calls.size()},
          {"launches", facts.launches.size()},
          {"reachable_launches", reachable_launches},
          {"extensions", facts.extensions.size()},
          {"embedded_sources", facts.modules.empty() ? 0 : facts.modules.size() - 1},
          {"maintainability", metrics::maintainability_json(facts)}};
}

FileResult analyze(const std::string& path, std::optional<std::string> text, const AnalysisContext& context,
                   FactSet* keep_facts) {
  const RuleSet& rules = context.rules ? *context.rules : empty_rules();
  const Policy& policy = context.policy ? *context.policy : empty_policy();
  const Engine engine(rules, policy, context.config, context.only_rules);

  FileResult result;
  result.path = path;
  std::vector<Diagnostic> produced;  // by ingest and the extractors, not by rules
  std::optional<SourceFile> source;
  FactSet facts;
  // The per-file deadline and memory limit; parsers and extractors below check it and stop early.
  FileBudget budget(context.limits.max_file_ms, context.limits.max_file_memory);
  bool abandoned = false;  // a limit was hit: the file gets one input-* finding and no rules

  const ingest::FileKind kind = ingest::kind_from_path(path);
  if (kind == ingest::FileKind::Unknown) {
    produced.push_back(pipeline_finding(
        "input-unknown-format",
        "unknown file type: kgate analyses .py submissions and .cu .cuh .cpp .cc .cxx .h .hpp sources", path));
  } else {
    source = text ? ingest::read_source(path, std::move(*text), context.limits, produced, true)
                  : ingest::read_source(path, {}, context.limits, produced, false);
  }

  std::vector<std::pair<std::string, std::string>> python_sidecars;  // a bundle's .py sidecars
  const HarnessChoice harness = with_entries_beside(path, context, with_outputs_beside(path, context));
  ts::TreePtr python_tree;  // the host's syntax tree, for the reference's mirrors below
  if (source) {
    try {
      if (kind == ingest::FileKind::Python) {
        // A bundle (solution.py followed by its sidecars under banner lines) is judged as its host
        // text, with the sidecars standing in for sibling files.
        ingest::Bundle bundle = ingest::split_bundle(source->text);
        if (!bundle.sidecars.empty()) source = SourceFile(source->path, std::move(bundle.host));
        ts::TreePtr tree = python::extract_facts(*source, context.limits, facts, produced, harness,
                                                 sibling_modules(path, bundle.sidecars, context.limits));
        if (tree) metrics::measure_python(ts_tree_root_node(tree.get()), source->text, facts);
        python_tree = std::move(tree);
        read_sibling_sources(*source, facts, context.limits, bundle.sidecars, result.sources_read);
        for (auto& [name, text] : bundle.sidecars)
          if (ingest::kind_from_path(name) == ingest::FileKind::Python)
            python_sidecars.emplace_back(name, std::move(text));
      }
      extract_cpp_facts(*source, facts, produced, context, harness);
      metrics::measure_cpp(*source, facts);
      // Calls into Python modules of the submission's directory: what they reach, at the call.
      if (kind == ingest::FileKind::Python) {
        const ExtractModule extract_module = [&](const SourceFile& f, FactSet& out, const HarnessChoice& choice) {
          std::vector<Diagnostic> dropped;
          std::vector<std::string> read;
          python::extract_facts(f, context.limits, out, dropped, choice, sibling_modules(f.path, {}, context.limits));
          read_sibling_sources(f, out, context.limits, {}, read);
          extract_cpp_facts(f, out, dropped, context, context.harness);
        };
        follow_imported_modules(*source, facts, context.limits, python_sidecars, extract_module, 0, nullptr,
                                &result.helpers_read);
      }
    } catch (const std::exception& e) {
      // An analyzer bug must not take down a batch: the file is rejected with the reason.
      produced.push_back(pipeline_finding("input-parse-error", std::string("analyzer failed: ") + e.what(), path));
    }
    if (budget.exhausted()) {
      // Facts of a half-analysed file prove nothing either way: drop them and say which limit hit.
      abandoned = true;
      const SubmissionFormat format = facts.format;
      facts = FactSet{};
      facts.format = format;
      produced.clear();
      produced.push_back(
          pipeline_finding(budget.overrun() == BudgetOverrun::Memory ? "input-too-much-memory" : "input-too-slow",
                           budget.describe(), path));
    }
  }
  result.format = facts.format;
  for (const Function& f : facts.functions)
    if (is_kernel(f.kind)) result.kernels.push_back(f.name);
  for (const std::string& name : facts.imported_kernels)
    if (std::find(result.kernels.begin(), result.kernels.end(), name) == result.kernels.end())
      result.kernels.push_back(name);

  result.harness = facts.harness;
  if (source && !abandoned) {
    const std::optional<ReferenceSummary> reference = reference_beside(path, facts, context);
    facts.contract = resolve_contract(facts, context, reference ? &*reference : nullptr);
    // --task's reference is the task; without it, the reference beside the file.
    const ReferenceSummary* mirrored = context.task_reference ? context.task_reference.get()
                                       : reference            ? &*reference
                                                              : nullptr;
    if (mirrored)
      mark_reference_mirrors(facts, *source, python_tree ? ts_tree_root_node(python_tree.get()) : TSNode{}, *mirrored);
  }
  result.contract = facts.contract;
  // Every file is judged: module-level rules run whatever the harness, and a file whose entry is not
  // found is `unjudged`, never a pass. Only the harness's own reference file (reference.py, task.py,
  // or a task's reference) is not a candidate: only input problems are reported for it.
  const bool judged = !facts.harness_reference;
  std::vector<Diagnostic> findings =
      source && judged && !abandoned ? engine.run(facts, path) : std::vector<Diagnostic>{};
  for (Diagnostic& d : produced) {
    // Input problems always surface in fixture mode: a fixture that does not parse tests nothing.
    const bool input_problem = d.rule.rfind("input-", 0) == 0;
    if (!(engine.only_mode() && input_problem) && !engine.enabled(d.rule)) continue;
    const Rule* rule = rules.find(d.rule);
    d.severity = engine.severity(d.rule, rule ? rule->severity : d.severity);
    if (d.path.empty()) d.path = path;
    if (d.engine.empty()) d.engine = "ingest";
    findings.push_back(std::move(d));
  }

  if (source && !abandoned) {
    SuppressionResult suppression = apply_suppressions(
        *source, findings, [&](std::string_view id) { return rules.contains(id); },
        [&](std::string_view id) { return engine.enabled(id); });
    result.suppressed = suppression.suppressed;
    for (Diagnostic& d : suppression.meta) {
      if (!engine.enabled(d.rule)) continue;
      const Rule* rule = rules.find(d.rule);
      d.severity = engine.severity(d.rule, rule ? rule->severity : d.severity);
      findings.push_back(std::move(d));
    }
  }

  for (Diagnostic& d : findings) {
    if (!d.span.valid()) d.span = {1, 1, 1, 1};
    d.fingerprint = fingerprint(d.rule, d.path, source ? source->line_text(d.span.line) : std::string_view());
  }
  std::sort(findings.begin(), findings.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.span.line, a.span.col, a.rule, a.message) < std::tie(b.span.line, b.span.col, b.rule, b.message);
  });
  // A bundle's Python sidecars (helpers.py that solution.py imports) are judged too, as files of their
  // own named `<bundle>::<sidecar>`: module-level rules run on them, and what they find counts for the
  // bundle. That they have no entry of their own is not a finding.
  for (const auto& [name, text] : python_sidecars) {
    if (abandoned) break;
    const FileResult side = analyze(path + "::" + name, text, context, nullptr);
    for (const Diagnostic& d : side.findings)
      if (d.rule != "entry-not-found" && d.rule != "modelnew-missing") findings.push_back(d);
  }
  result.rejected =
      std::any_of(findings.begin(), findings.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
  result.verdict = verdict_of(facts, findings, source.has_value() && !abandoned);
  result.entry_found = facts.entry >= 0;
  result.findings = std::move(findings);
  result.metrics = basic_metrics(source, facts);
  if (keep_facts) *keep_facts = std::move(facts);
  return result;
}

}  // namespace

FileResult analyze_file(const std::string& path, const AnalysisContext& context) {
  return analyze(path, std::nullopt, context, nullptr);
}

FileResult analyze_source(const std::string& path, const std::string& text, const AnalysisContext& context) {
  return analyze(path, text, context, nullptr);
}

FileResult analyze_file_keeping_facts(const std::string& path, const AnalysisContext& context, FactSet& facts) {
  return analyze(path, std::nullopt, context, &facts);
}

}  // namespace kgate
