#include "analyzers/pipeline/contract.h"

#include <cctype>
#include <string_view>
#include <system_error>
#include <vector>

#include "analyzers/core/config.h"
#include "analyzers/core/dtype_rank.h"
#include "analyzers/harness/harness.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/python/python_facts.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate {

DtypeContract contract_of_reference(const FactSet& reference, const std::string& source) {
  std::string lowest = "fp32";
  for (const Cast& cast : reference.casts) {
    if (cast.via == "flag" || cast.module != 0) continue;
    // A reference's __main__ block is its own test driver, not the task.
    if (cast.setup && cast.function < 0) continue;
    const auto name = contract_dtype(cast.to_dtype);
    if (!name) continue;
    if (mantissa_bits(*name).value_or(99) < mantissa_bits(lowest).value_or(99)) lowest = *name;
  }
  return {lowest, source};
}

std::optional<std::tuple<std::string, std::string, std::string>> reference_call_key(const FactSet& facts,
                                                                                    const SourceFile& source,
                                                                                    const Call& call) {
  if (call.module != 0 || facts.modules.empty() || facts.modules[0].language != Language::Python) return std::nullopt;
  if (call.function < 0 || call.function >= static_cast<int>(facts.functions.size()) || call.resolved.empty() ||
      !call.span.valid() || call.span.end_line > source.lines.line_count())
    return std::nullopt;
  const uint32_t begin = source.lines.line_range(call.span.line).first + call.span.col - 1;
  const uint32_t end = source.lines.line_range(call.span.end_line).first + call.span.end_col - 1;
  if (begin >= end || end > source.text.size()) return std::nullopt;
  std::string text;
  for (char ch : std::string_view(source.text).substr(begin, end - begin))
    if (!std::isspace(static_cast<unsigned char>(ch))) text += ch;
  return std::make_tuple(facts.functions[call.function].name, call.resolved, std::move(text));
}

ReferenceSummary ReferenceSummaries::of(const std::filesystem::path& reference, const ingest::Limits& limits) {
  const std::string key = reference.lexically_normal().string();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  }
  ReferenceSummary summary;
  std::vector<Diagnostic> diagnostics;
  if (auto source = ingest::read_source(key, {}, limits, diagnostics, false)) {
    FactSet facts;
    const ts::TreePtr tree = python::extract_facts(*source, limits, facts, diagnostics);
    summary.contract = contract_of_reference(facts, reference.filename().string());
    read_entry_layout(facts, summary);
    if (tree) {
      read_solve_signature(ts_tree_root_node(tree.get()), source->text, summary);
      summary.seeded = read_seeded_draws(facts, *source, ts_tree_root_node(tree.get()));
    }
    for (const Call& call : facts.calls)
      if (auto k = reference_call_key(facts, *source, call)) summary.calls.insert(std::move(*k));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return memo_.emplace(key, std::move(summary)).first->second;
}

void read_entry_layout(const FactSet& reference, ReferenceSummary& summary) {
  std::optional<size_t> inputs, outputs;
  bool inputs_known = true, outputs_known = true;
  for (const Return& r : reference.returns) {
    const std::string fn = reference.function_name(r.function);
    if (fn == "get_inputs") {
      // One return, a list or tuple written out: its elements that are not number constants.
      const bool literal = r.elements >= 0 && !inputs;
      if (literal) inputs = static_cast<size_t>(r.elements - r.number_elements);
      inputs_known = inputs_known && literal;
    } else if (fn == "Model.forward" && r.reachable) {
      // Every return alike: a tuple written out, or one value (one tensor).
      const size_t n = r.elements >= 0 ? static_cast<size_t>(r.elements) : 1;
      outputs_known = outputs_known && (!outputs || *outputs == n);
      outputs = n;
    }
  }
  if (inputs_known && inputs) summary.tensor_inputs = inputs;
  if (outputs_known && outputs) summary.outputs = outputs;
}

namespace {

// The value of a plain string literal ("in", 'out'); nullopt for anything else (f-strings, concatenations).
std::optional<std::string> string_value(TSNode node, std::string_view source) {
  if (!ts::is(node, "string")) return std::nullopt;
  std::string out;
  for (TSNode part : ts::named_children(node)) {
    if (ts::is(part, "interpolation")) return std::nullopt;
    if (ts::is(part, "string_content")) out += ts::text(part, source);
  }
  return out;
}

}  // namespace

void read_solve_signature(TSNode root, std::string_view source, ReferenceSummary& summary) {
  TSNode dict{};
  ts::preorder(root, [&](TSNode n) {
    if (!ts_node_is_null(dict)) return false;
    if (ts::is(n, "function_definition") && ts::text(ts::field(n, "name"), source) == "get_solve_signature")
      ts::preorder(ts::field(n, "body"), [&](TSNode m) {
        if (ts::is(m, "return_statement") && ts::named_count(m) == 1 && ts::is(ts::named_child(m, 0), "dictionary")) {
          dict = ts::named_child(m, 0);
          return false;
        }
        return true;
      });
    return ts_node_is_null(dict);
  });
  if (ts_node_is_null(dict)) return;
  std::vector<std::string> outputs, inputs;
  for (TSNode pair : ts::named_children(dict)) {
    if (!ts::is(pair, "pair")) return;  // `**other`: not written out
    const auto name = string_value(ts::field(pair, "key"), source);
    TSNode value = ts::field(pair, "value");
    if (!name || !ts::is(value, "tuple") || ts::named_count(value) < 2) return;
    const auto direction = string_value(ts::named_child(value, ts::named_count(value) - 1), source);
    if (!direction) return;
    if (*direction == "out" || *direction == "inout")
      outputs.push_back(*name);
    else if (*direction == "in" &&
             ts::text(ts::named_child(value, 0), source).find("POINTER") != std::string_view::npos)
      inputs.push_back(*name);
    else if (*direction != "in")
      return;
  }
  summary.output_names = std::move(outputs);
  summary.input_names = std::move(inputs);
}

std::optional<ReferenceSummary> reference_beside(const std::string& path, const FactSet& facts,
                                                 const AnalysisContext& context) {
  const HarnessSet& set = context.harness.set ? *context.harness.set : default_harnesses();
  const HarnessProfile* profile = facts.harness.empty() ? nullptr : set.find(facts.harness);
  if (!profile) return std::nullopt;
  const std::filesystem::path self(path);
  for (const std::string& name : profile->contract_reference) {
    const std::filesystem::path reference = self.parent_path() / name;
    if (reference.filename() == self.filename() || reference.extension() != ".py") continue;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(reference, ec)) continue;
    ReferenceSummary found;
    if (context.reference_summaries) {
      found = context.reference_summaries->of(reference, context.limits);
    } else {
      ReferenceSummaries local;
      found = local.of(reference, context.limits);
    }
    if (found.contract.known()) return found;
  }
  return std::nullopt;
}

DtypeContract resolve_contract(const FactSet& facts, const AnalysisContext& context, const ReferenceSummary* beside) {
  if (context.contract.known()) return context.contract;
  if (beside && beside->contract.known()) return beside->contract;
  const HarnessSet& set = context.harness.set ? *context.harness.set : default_harnesses();
  const HarnessProfile* profile = facts.harness.empty() ? nullptr : set.find(facts.harness);
  if (context.config && !context.config->contract.empty())
    return {context.config->contract,
            context.config->source.empty() ? std::string(kConfigFileName) : context.config->source};
  if (profile && !profile->contract_default.empty())
    return {profile->contract_default, "the " + profile->name + " harness's default"};
  return {};
}

void mark_reference_mirrors(FactSet& facts, const SourceFile& source, TSNode root, const ReferenceSummary& reference) {
  for (Call& call : facts.calls)
    if (auto k = reference_call_key(facts, source, call)) call.mirrors_reference = reference.calls.count(*k) > 0;
  if (!ts_node_is_null(root)) mark_seeded_draws(facts, source, root, reference.seeded);
}

}  // namespace kgate
