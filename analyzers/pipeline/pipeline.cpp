// The per-file pipeline: ingest, facts by file kind, rules, suppressions, fingerprints, verdict.
#include "analyzers/pipeline/pipeline.h"

#include <algorithm>
#include <exception>
#include <optional>

#include "analyzers/core/budget.h"
#include "analyzers/core/config.h"
#include "analyzers/core/fingerprint.h"
#include "analyzers/core/suppressions.h"
#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/metrics/cpp_metrics.h"
#include "analyzers/metrics/metrics_json.h"
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

Diagnostic pipeline_finding(std::string rule, std::string message, const std::string& path) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.severity = Severity::Error;
  d.message = std::move(message);
  d.path = path;
  d.span = {1, 1, 1, 1};
  d.engine = "ingest";
  return d;
}

// C++/CUDA facts: for a raw .cu/.cpp file (module 0 is created from the host), and for the C++
// strings a Python submission embeds (modules the Python extractor added). Then the cross-language
// link marks what Python's extension calls reach.
void extract_cpp_facts(const SourceFile& file, FactSet& facts, std::vector<Diagnostic>& diagnostics,
                       const AnalysisContext& context) {
  if (context.cpp_engine == "none") return;
  const bool has_cpp = facts.modules.empty() || std::any_of(facts.modules.begin(), facts.modules.end(), [](const Module& m) {
                         return m.language == Language::Cuda || m.language == Language::Cpp;
                       });
  if (!has_cpp) return;
  cuda::CudaOptions options;
  options.force_tree_sitter = context.cpp_engine == "tree-sitter";
  options.compile_commands = context.compile_commands;
  cuda::extract_facts(file, facts, diagnostics, options);
  cuda::link(facts);
}

size_t count_lines(const std::string& text) {
  if (text.empty()) return 0;
  const auto newlines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (text.back() == '\n' ? 0 : 1);
}

nlohmann::json basic_metrics(const std::optional<SourceFile>& source, const FactSet& facts) {
  const size_t reachable_launches =
      static_cast<size_t>(std::count_if(facts.launches.begin(), facts.launches.end(), [](const Launch& l) { return l.reachable; }));
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

FileResult analyze(const std::string& path, std::optional<std::string> text, const AnalysisContext& context) {
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
    produced.push_back(pipeline_finding("input-unknown-format",
                                        "unknown file type: kgate analyses .py submissions and .cu .cuh .cpp .cc .cxx .h .hpp sources", path));
  } else {
    source = text ? ingest::read_source(path, std::move(*text), context.limits, produced, true)
                  : ingest::read_source(path, {}, context.limits, produced, false);
  }

  if (source) {
    try {
      if (kind == ingest::FileKind::Python) python::extract_facts(*source, context.limits, facts, produced);
      extract_cpp_facts(*source, facts, produced, context);
      metrics::measure_cpp(*source, facts);
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
      produced.push_back(pipeline_finding(budget.overrun() == BudgetOverrun::Memory ? "input-too-much-memory" : "input-too-slow",
                                          budget.describe(), path));
    }
  }
  result.format = facts.format;
  for (const Function& f : facts.functions)
    if (f.kind == FunctionKind::CudaGlobal || f.kind == FunctionKind::TritonJit) result.kernels.push_back(f.name);

  // Task references (class Model + get_inputs) and Python files that are not submissions (a setup.py
  // in a kernel repository) are not judged as candidates: only input problems are reported for them.
  const bool judged = facts.format != SubmissionFormat::Task && facts.format != SubmissionFormat::PythonOther;
  std::vector<Diagnostic> findings = source && judged && !abandoned ? engine.run(facts, path) : std::vector<Diagnostic>{};
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
        *source, findings, [&](std::string_view id) { return rules.contains(id); }, [&](std::string_view id) { return engine.enabled(id); });
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
  result.rejected = std::any_of(findings.begin(), findings.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
  result.findings = std::move(findings);
  result.metrics = basic_metrics(source, facts);
  return result;
}

}  // namespace

FileResult analyze_file(const std::string& path, const AnalysisContext& context) { return analyze(path, std::nullopt, context); }

FileResult analyze_source(const std::string& path, const std::string& text, const AnalysisContext& context) {
  return analyze(path, text, context);
}

}  // namespace kgate
