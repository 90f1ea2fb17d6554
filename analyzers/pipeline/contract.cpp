#include "analyzers/pipeline/contract.h"

#include <cctype>
#include <map>
#include <set>
#include <string_view>
#include <system_error>
#include <vector>

#include "analyzers/core/config.h"
#include "analyzers/core/dtype_rank.h"
#include "analyzers/harness/harness.h"
#include "analyzers/pipeline/evaluator.h"
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
      read_one_element_params(ts_tree_root_node(tree.get()), source->text, summary);
      summary.seeded = read_seeded_draws(facts, *source, ts_tree_root_node(tree.get()));
      summary.evaluated = read_evaluated_names(ts_tree_root_node(tree.get()), source->text);
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

std::optional<std::string> string_value(TSNode node, std::string_view source) {
  if (!ts::is(node, "string")) return std::nullopt;
  std::string out;
  for (TSNode part : ts::named_children(node)) {
    if (ts::is(part, "interpolation")) return std::nullopt;
    if (ts::is(part, "string_content")) out += ts::text(part, source);
  }
  return out;
}

// The element dtype a ctypes pointer type names (`ctypes.POINTER(ctypes.c_int8)` -> "int8"); "" for
// anything else (a scalar, an unknown ctypes name). LeetGPU declares fp16 and bf16 buffers as c_uint16,
// so "uint16" says only that an element has 16 bits.
std::string ctypes_pointee_dtype(std::string_view type) {
  const size_t open = type.find("POINTER(");
  if (open == std::string_view::npos) return "";
  std::string_view inner = type.substr(open + 8);
  inner = inner.substr(0, inner.find(')'));
  if (const size_t dot = inner.rfind('.'); dot != std::string_view::npos) inner = inner.substr(dot + 1);
  static const std::map<std::string_view, std::string> kNames = {
      {"c_int8", "int8"},     {"c_byte", "int8"},     {"c_uint8", "uint8"},    {"c_ubyte", "uint8"},
      {"c_bool", "bool"},     {"c_int16", "int16"},   {"c_short", "int16"},    {"c_uint16", "uint16"},
      {"c_ushort", "uint16"}, {"c_int32", "int32"},   {"c_int", "int32"},      {"c_uint32", "uint32"},
      {"c_uint", "uint32"},   {"c_int64", "int64"},   {"c_longlong", "int64"}, {"c_uint64", "uint64"},
      {"c_float", "float32"}, {"c_double", "float64"}};
  const auto it = kNames.find(inner);
  return it == kNames.end() ? "" : it->second;
}

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
  std::vector<std::string> outputs, inputs, dtypes;
  for (TSNode pair : ts::named_children(dict)) {
    if (!ts::is(pair, "pair")) return;  // `**other`: not written out
    const auto name = string_value(ts::field(pair, "key"), source);
    TSNode value = ts::field(pair, "value");
    if (!name || !ts::is(value, "tuple") || ts::named_count(value) < 2) return;
    dtypes.push_back(ctypes_pointee_dtype(ts::text(ts::named_child(value, 0), source)));
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
  summary.param_dtypes = std::move(dtypes);
}

namespace {

// `(1,)`, `()`, `[1]`, `1`: a shape of one element as written.
bool one_element_shape(TSNode n, std::string_view source) {
  if (ts::is(n, "integer")) return ts::text(n, source) == "1";
  if (ts::is(n, "tuple") || ts::is(n, "list")) {
    const auto items = ts::named_children(n);
    return items.empty() || (items.size() == 1 && ts::is(items[0], "integer") && ts::text(items[0], source) == "1");
  }
  return false;
}

// A tensor of one element as a test generator writes it: torch.empty(1, ...), torch.zeros((1,)),
// torch.tensor([v]), torch.tensor(v) on a number, or a local every assignment of which is one of those.
bool one_element_tensor(TSNode e, TSNode body, std::string_view source, int depth) {
  if (depth > 4 || ts_node_is_null(e)) return false;
  if (ts::is(e, "identifier")) {
    bool any = false, all = true;
    ts::preorder(body, [&](TSNode n) {
      if (ts::is(n, "assignment") && ts::is(ts::field(n, "left"), "identifier") &&
          ts::text(ts::field(n, "left"), source) == ts::text(e, source)) {
        any = true;
        all = all && one_element_tensor(ts::field(n, "right"), body, source, depth + 1);
      }
      return all;
    });
    return any && all;
  }
  if (!ts::is(e, "call")) return false;
  const std::string_view callee = ts::text(ts::field(e, "function"), source);
  TSNode first{};
  for (TSNode a : ts::named_children(ts::field(e, "arguments")))
    if (!ts::is(a, "keyword_argument") && !ts::is(a, "comment")) {
      first = a;
      break;
    }
  if (ts_node_is_null(first)) return false;
  if (callee == "torch.empty" || callee == "torch.zeros" || callee == "torch.ones" || callee == "torch.full")
    return one_element_shape(first, source);
  if (callee == "torch.tensor") {
    if (ts::is(first, "list") || ts::is(first, "tuple")) return ts::named_count(first) == 1;
    return ts::is(first, "integer") || ts::is(first, "float") || ts::is(first, "unary_operator");
  }
  return false;
}

}  // namespace

void read_one_element_params(TSNode root, std::string_view source, ReferenceSummary& summary) {
  std::vector<std::string> names = summary.output_names;
  names.insert(names.end(), summary.input_names.begin(), summary.input_names.end());
  std::set<std::string> asserted;                    // `assert K.shape == (1,)`, `K.numel() == 1`
  std::map<std::string, std::pair<int, int>> built;  // K -> (tests building it, of one element)
  std::vector<TSNode> generators;                    // bodies of generate_example_test, ...
  ts::preorder(root, [&](TSNode n) {
    if (ts::is(n, "comparison_operator") && ts::named_count(n) == 2 && ts::text(ts::child(n, 1), source) == "==") {
      const TSNode left = ts::named_child(n, 0), right = ts::named_child(n, 1);
      if (ts::is(left, "attribute") && ts::text(ts::field(left, "attribute"), source) == "shape" &&
          ts::is(ts::field(left, "object"), "identifier") && one_element_shape(right, source) &&
          !ts::is(right, "integer"))
        asserted.emplace(ts::text(ts::field(left, "object"), source));
      const TSNode fn = ts::field(left, "function");
      if (ts::is(left, "call") && ts::is(fn, "attribute") && ts::text(ts::field(fn, "attribute"), source) == "numel" &&
          ts::is(ts::field(fn, "object"), "identifier") && ts::is(right, "integer") && ts::text(right, source) == "1")
        asserted.emplace(ts::text(ts::field(fn, "object"), source));
    }
    if (ts::is(n, "function_definition") && ts::text(ts::field(n, "name"), source).rfind("generate_", 0) == 0)
      generators.push_back(ts::field(n, "body"));
    return true;
  });
  // Every test the generators build: the dict entries naming the parameter.
  for (TSNode body : generators)
    ts::preorder(body, [&](TSNode m) {
      if (!ts::is(m, "pair") || !ts::is(ts::field(m, "key"), "string")) return true;
      std::string key;
      for (TSNode part : ts::named_children(ts::field(m, "key")))
        if (ts::is(part, "string_content")) key += ts::text(part, source);
      auto& [tests, single] = built[key];
      ++tests;
      single += one_element_tensor(ts::field(m, "value"), body, source, 0) ? 1 : 0;
      return true;
    });
  for (const std::string& name : names) {
    const auto at = built.find(name);
    if (asserted.count(name) || (at != built.end() && at->second.first > 0 && at->second.first == at->second.second))
      summary.one_element_names.push_back(name);
  }
}

std::optional<ReferenceSummary> summary_beside(const std::string& path, const std::string& name,
                                               const AnalysisContext& context) {
  if (name.find_first_of("*?[") != std::string::npos) return std::nullopt;  // a pattern names no one file
  const std::filesystem::path self(path);
  const std::filesystem::path reference = self.parent_path() / name;
  std::error_code ec;
  if (reference.filename() == self.filename() || reference.extension() != ".py" ||
      !std::filesystem::is_regular_file(reference, ec))
    return std::nullopt;
  if (context.reference_summaries) return context.reference_summaries->of(reference, context.limits);
  ReferenceSummaries local;
  return local.of(reference, context.limits);
}

std::optional<ReferenceSummary> reference_beside(const std::string& path, const FactSet& facts,
                                                 const AnalysisContext& context) {
  const HarnessSet& set = context.harness.set ? *context.harness.set : default_harnesses();
  const HarnessProfile* profile = facts.harness.empty() ? nullptr : set.find(facts.harness);
  if (!profile) return std::nullopt;
  for (const std::string& name : profile->contract_reference)
    if (auto found = summary_beside(path, name, context); found && found->contract.known()) return found;
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

void name_entry_parameters(const ReferenceSummary& reference, HarnessChoice& choice) {
  choice.output_names = reference.output_names;
  choice.input_names = reference.input_names;
  choice.one_element_names = reference.one_element_names;
  choice.param_dtypes = reference.param_dtypes;
}

void mark_reference_mirrors(FactSet& facts, const SourceFile& source, TSNode root, const ReferenceSummary& reference) {
  for (Call& call : facts.calls)
    if (auto k = reference_call_key(facts, source, call)) call.mirrors_reference = reference.calls.count(*k) > 0;
  if (!ts_node_is_null(root)) mark_seeded_draws(facts, source, root, reference.seeded);
}

}  // namespace kgate
