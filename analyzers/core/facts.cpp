// Field tables of the fact model: the single list of names that rules may match on.
#include "analyzers/core/facts.h"

#include "analyzers/core/dtype_rank.h"

#include <algorithm>
#include <array>
#include <functional>
#include <unordered_map>

namespace kgate {

std::string_view to_string(Language language) {
  switch (language) {
    case Language::Python:
      return "python";
    case Language::Triton:
      return "triton";
    case Language::Cuda:
      return "cuda";
    case Language::Cpp:
      return "cpp";
  }
  return "python";
}

std::string_view to_string(FunctionKind kind) {
  switch (kind) {
    case FunctionKind::Python:
      return "python";
    case FunctionKind::TritonJit:
      return "triton-jit";
    case FunctionKind::CudaGlobal:
      return "cuda-global";
    case FunctionKind::CudaDevice:
      return "cuda-device";
    case FunctionKind::Host:
      return "host";
    case FunctionKind::Lambda:
      return "lambda";
    case FunctionKind::ModuleBody:
      return "module";
    case FunctionKind::DslKernel:
      return "dsl-kernel";
  }
  return "python";
}

std::string_view to_string(ReceiverKind kind) {
  switch (kind) {
    case ReceiverKind::None:
      return "none";
    case ReceiverKind::Module:
      return "module";
    case ReceiverKind::Value:
      return "value";
    case ReceiverKind::Param:
      return "param";
    case ReceiverKind::Self:
      return "self";
    case ReceiverKind::Literal:
      return "literal";
    case ReceiverKind::Output:
      return "output";
  }
  return "none";
}

std::string_view to_string(LaunchKind kind) {
  switch (kind) {
    case LaunchKind::Triton:
      return "triton";
    case LaunchKind::Extension:
      return "extension";
    case LaunchKind::CudaChevron:
      return "cuda-chevron";
    case LaunchKind::CudaApi:
      return "cuda-api";
    case LaunchKind::Dsl:
      return "dsl";
  }
  return "triton";
}

std::string_view to_string(WriteKind kind) {
  switch (kind) {
    case WriteKind::Attribute:
      return "attribute";
    case WriteKind::Subscript:
      return "subscript";
    case WriteKind::Setattr:
      return "setattr";
    case WriteKind::Global:
      return "global";
  }
  return "attribute";
}

std::string_view to_string(SubmissionFormat format) {
  switch (format) {
    case SubmissionFormat::Unknown:
      return "unknown";
    case SubmissionFormat::KernelBenchCuda:
      return "kernelbench-cuda";
    case SubmissionFormat::KernelBenchTriton:
      return "kernelbench-triton";
    case SubmissionFormat::KernelBenchPython:
      return "kernelbench-python";
    case SubmissionFormat::Task:
      return "task";
    case SubmissionFormat::PythonOther:
      return "python";
    case SubmissionFormat::RawCuda:
      return "raw-cuda";
  }
  return "unknown";
}

namespace {

using Getter = std::function<FieldValue(const FactSet&, size_t)>;
using Table = std::vector<std::pair<std::string, Getter>>;

FieldValue s(std::string v) { return FieldValue{std::move(v)}; }
FieldValue b(bool v) { return FieldValue{v}; }

std::string function_kind_of(const FactSet& f, int index) {
  if (index < 0 || index >= static_cast<int>(f.functions.size())) return "module";
  return std::string(to_string(f.functions[index].kind));
}

std::string language_of(const FactSet& f, int module) {
  if (module < 0 || module >= static_cast<int>(f.modules.size())) return "python";
  return std::string(to_string(f.modules[module].language));
}

// Adds the guard fields shared by every fact that sits in a function body.
template <typename Fact, typename Member>
void add_guard_fields(Table& t, Member member) {
  auto g = [member](const FactSet& f, size_t i) -> const Guard& { return (f.*member)[i].guard; };
  t.push_back({"dead", [g](const FactSet& f, size_t i) { return b(g(f, i).dead()); }});
  t.push_back({"constant_false", [g](const FactSet& f, size_t i) { return b(g(f, i).constant_false); }});
  t.push_back({"after_return", [g](const FactSet& f, size_t i) { return b(g(f, i).after_return); }});
  t.push_back({"impossible_shape", [g](const FactSet& f, size_t i) { return b(g(f, i).impossible_shape); }});
  t.push_back({"training", [g](const FactSet& f, size_t i) { return b(g(f, i).training); }});
  t.push_back({"shape_test", [g](const FactSet& f, size_t i) { return b(g(f, i).shape_test); }});
  t.push_back({"in_try", [g](const FactSet& f, size_t i) { return b(g(f, i).in_try); }});
  t.push_back({"in_except", [g](const FactSet& f, size_t i) { return b(g(f, i).in_except); }});
  t.push_back({"side_stream", [g](const FactSet& f, size_t i) { return b(g(f, i).side_stream); }});
  t.push_back({"script_main", [g](const FactSet& f, size_t i) { return b(g(f, i).script_main); }});
  t.push_back({"value_statistic", [g](const FactSet& f, size_t i) { return b(g(f, i).value_statistic); }});
}

Table call_table() {
  Table t = {
      {"callee", [](const FactSet& f, size_t i) { return s(f.calls[i].callee); }},
      {"resolved", [](const FactSet& f, size_t i) { return s(f.calls[i].resolved); }},
      {"method", [](const FactSet& f, size_t i) { return s(f.calls[i].method); }},
      {"launch_argument", [](const FactSet& f, size_t i) { return b(f.calls[i].launch_argument); }},
      {"graph_refreshed", [](const FactSet& f, size_t i) { return b(f.calls[i].graph_refreshed); }},
      {"graph_key", [](const FactSet& f, size_t i) { return b(f.calls[i].graph_key); }},
      {"scalar_operands", [](const FactSet& f, size_t i) { return b(f.calls[i].scalar_operands); }},
      {"host_data", [](const FactSet& f, size_t i) { return b(f.calls[i].host_data); }},
      {"mirrors_reference", [](const FactSet& f, size_t i) { return b(f.calls[i].mirrors_reference); }},
      {"state_receiver", [](const FactSet& f, size_t i) { return b(f.calls[i].state_receiver); }},
      {"writes_param", [](const FactSet& f, size_t i) { return b(f.calls[i].writes_param); }},
      {"param_source", [](const FactSet& f, size_t i) { return s(f.calls[i].param_source); }},
      // Wraps a function of this file that itself launches one of the submission's kernels.
      {"wraps_launcher",
       [](const FactSet& f, size_t i) {
         const int w = f.calls[i].wrapped_function;
         return b(w >= 0 && std::any_of(f.launches.begin(), f.launches.end(),
                                        [&](const Launch& l) { return l.function == w && !l.guard.dead(); }));
       }},
      {"receiver", [](const FactSet& f, size_t i) { return s(std::string(to_string(f.calls[i].receiver))); }},
      {"dynamic_name", [](const FactSet& f, size_t i) { return b(f.calls[i].dynamic_name); }},
      {"unresolved_dynamic", [](const FactSet& f, size_t i) { return b(f.calls[i].unresolved_dynamic); }},
      {"instance_call", [](const FactSet& f, size_t i) { return b(f.calls[i].instance_call); }},
      {"local_target", [](const FactSet& f, size_t i) { return b(f.calls[i].local_target); }},
      // C++: a call of a function the harness's own header defines for its reference or checker.
      {"harness_reference", [](const FactSet& f, size_t i) { return b(f.calls[i].harness_reference); }},
      {"string_args", [](const FactSet& f, size_t i) { return FieldValue{f.calls[i].string_args}; }},
      {"positional_args",
       [](const FactSet& f, size_t i) { return FieldValue{static_cast<int64_t>(f.calls[i].positional_args)}; }},
      {"keywords", [](const FactSet& f, size_t i) { return FieldValue{f.calls[i].keywords}; }},
      {"keyword_values", [](const FactSet& f, size_t i) { return FieldValue{f.calls[i].keyword_values}; }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.calls[i].function)); }},
      {"function_kind", [](const FactSet& f, size_t i) { return s(function_kind_of(f, f.calls[i].function)); }},
      {"language", [](const FactSet& f, size_t i) { return s(language_of(f, f.calls[i].module)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.calls[i].reachable); }},
      // Runs when the module is imported or the model built: the module body (outside a __main__
      // block), __init__, and what they call.
      {"executed_at_import",
       [](const FactSet& f, size_t i) {
         const Call& c = f.calls[i];
         if (c.function < 0) return b(!c.guard.script_main);
         return b(c.function < static_cast<int>(f.functions.size()) && f.functions[c.function].executed_at_import);
       }},
      {"input_generator",
       [](const FactSet& f, size_t i) {
         const int fn = f.calls[i].function;
         return b(fn >= 0 && fn < static_cast<int>(f.functions.size()) && f.functions[fn].input_generator);
       }},
      {"output_contract", [](const FactSet& f, size_t) { return s(f.output_contract); }},
  };
  add_guard_fields<Call>(t, &FactSet::calls);
  return t;
}

Table launch_table() {
  Table t = {
      {"kind", [](const FactSet& f, size_t i) { return s(std::string(to_string(f.launches[i].kind))); }},
      {"kernel", [](const FactSet& f, size_t i) { return s(f.launches[i].kernel); }},
      {"grid", [](const FactSet& f, size_t i) { return s(f.launches[i].grid); }},
      {"grid_empty", [](const FactSet& f, size_t i) { return b(f.launches[i].grid_empty); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.launches[i].function)); }},
      {"language", [](const FactSet& f, size_t i) { return s(language_of(f, f.launches[i].module)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.launches[i].reachable); }},
  };
  add_guard_fields<Launch>(t, &FactSet::launches);
  return t;
}

Table import_table() {
  return {
      {"module", [](const FactSet& f, size_t i) { return s(f.imports[i].module); }},
      {"name", [](const FactSet& f, size_t i) { return s(f.imports[i].name); }},
      {"qualified",
       [](const FactSet& f, size_t i) {
         const auto& im = f.imports[i];
         return s(im.name.empty() ? im.module : im.module + "." + im.name);
       }},
      {"alias", [](const FactSet& f, size_t i) { return s(f.imports[i].alias); }},
      {"dynamic", [](const FactSet& f, size_t i) { return b(f.imports[i].dynamic); }},
      {"harness_allowed", [](const FactSet& f, size_t i) { return b(f.imports[i].harness_allowed); }},
      {"harness_forbidden", [](const FactSet& f, size_t i) { return b(f.imports[i].harness_forbidden); }},
      {"missing", [](const FactSet& f, size_t i) { return b(f.imports[i].missing); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.imports[i].function)); }},
      {"input_generator",
       [](const FactSet& f, size_t i) {
         const int fn = f.imports[i].function;
         return b(fn >= 0 && fn < static_cast<int>(f.functions.size()) && f.functions[fn].input_generator);
       }},
  };
}

Table write_table() {
  Table t = {
      {"target", [](const FactSet& f, size_t i) { return s(f.writes[i].target); }},
      {"resolved", [](const FactSet& f, size_t i) { return s(f.writes[i].resolved); }},
      {"attribute", [](const FactSet& f, size_t i) { return s(f.writes[i].attribute); }},
      {"kind", [](const FactSet& f, size_t i) { return s(std::string(to_string(f.writes[i].kind))); }},
      {"root", [](const FactSet& f, size_t i) { return s(std::string(to_string(f.writes[i].root))); }},
      {"dynamic_name", [](const FactSet& f, size_t i) { return b(f.writes[i].dynamic_name); }},
      {"augmented", [](const FactSet& f, size_t i) { return b(f.writes[i].augmented); }},
      {"stores_kernel", [](const FactSet& f, size_t i) { return b(f.writes[i].stores_kernel); }},
      {"entry_rebinding", [](const FactSet& f, size_t i) { return b(f.writes[i].entry_rebinding); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.writes[i].function)); }},
      {"function_kind", [](const FactSet& f, size_t i) { return s(function_kind_of(f, f.writes[i].function)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.writes[i].reachable); }},
      {"output_contract", [](const FactSet& f, size_t) { return s(f.output_contract); }},
  };
  add_guard_fields<AttributeWrite>(t, &FactSet::writes);
  return t;
}

Table name_table() {
  return {
      {"resolved", [](const FactSet& f, size_t i) { return s(f.names[i].resolved); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.names[i].function)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.names[i].reachable); }},
      {"state_receiver", [](const FactSet& f, size_t i) { return b(f.names[i].state_receiver); }},
  };
}

Table global_table() {
  return {
      {"name", [](const FactSet& f, size_t i) { return s(f.globals[i].name); }},
      {"kind", [](const FactSet& f, size_t i) { return s(f.globals[i].kind); }},
      {"mutated_in_forward", [](const FactSet& f, size_t i) { return b(f.globals[i].mutated_in_forward); }},
      {"language", [](const FactSet& f, size_t i) { return s(language_of(f, f.globals[i].module)); }},
  };
}

Table handler_table() {
  return {
      {"catches", [](const FactSet& f, size_t i) { return FieldValue{f.handlers[i].catches}; }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.handlers[i].function)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.handlers[i].reachable); }},
      {"try_has_launch", [](const FactSet& f, size_t i) { return b(f.handlers[i].try_has_launch); }},
      {"handler_has_torch_call", [](const FactSet& f, size_t i) { return b(f.handlers[i].handler_has_torch_call); }},
  };
}

Table class_table() {
  return {
      {"name", [](const FactSet& f, size_t i) { return s(f.classes[i].name); }},
      {"bases", [](const FactSet& f, size_t i) { return FieldValue{f.classes[i].bases}; }},
      {"methods", [](const FactSet& f, size_t i) { return FieldValue{f.classes[i].methods}; }},
      {"body_only_pass", [](const FactSet& f, size_t i) { return b(f.classes[i].body_only_pass); }},
      {"alias", [](const FactSet& f, size_t i) { return b(f.classes[i].alias); }},
  };
}

Table cast_table() {
  return {
      {"to_dtype", [](const FactSet& f, size_t i) { return s(f.casts[i].to_dtype); }},
      {"via", [](const FactSet& f, size_t i) { return s(f.casts[i].via); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.casts[i].function)); }},
      {"function_kind", [](const FactSet& f, size_t i) { return s(function_kind_of(f, f.casts[i].function)); }},
      {"language", [](const FactSet& f, size_t i) { return s(language_of(f, f.casts[i].module)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.casts[i].reachable); }},
      {"setup", [](const FactSet& f, size_t i) { return b(f.casts[i].setup); }},
      // below | within | unknown (no contract) | none (not a floating dtype): analyzers/core/dtype_rank.h
      {"contract", [](const FactSet& f,
                      size_t i) { return s(std::string(contract_relation(f.casts[i].to_dtype, f.contract.dtype))); }},
      {"contract_dtype", [](const FactSet& f, size_t) { return s(f.contract.known() ? f.contract.dtype : "unknown"); }},
      {"contract_source", [](const FactSet& f, size_t) { return s(f.contract.known() ? f.contract.source : "none"); }},
  };
}

Table return_table() {
  return {
      {"origins", [](const FactSet& f, size_t i) { return FieldValue{f.returns[i].origins}; }},
      {"returns_param", [](const FactSet& f, size_t i) { return b(f.returns[i].returns_param); }},
      {"written", [](const FactSet& f, size_t i) { return b(f.returns[i].written); }},
      {"from_state", [](const FactSet& f, size_t i) { return b(f.returns[i].from_state); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.returns[i].function)); }},
      {"function_kind", [](const FactSet& f, size_t i) { return s(function_kind_of(f, f.returns[i].function)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.returns[i].reachable); }},
      {"returns_empty", [](const FactSet& f, size_t i) { return b(f.returns[i].returns_empty); }},
      // The harness's entry (forward, custom_kernel, solve): what it returns is what the harness checks.
      // A C++ function's return counts wherever it is reachable (its callers are not followed).
      {"entry",
       [](const FactSet& f, size_t i) {
         const int fn = f.returns[i].function;
         const bool cpp =
             fn >= 0 && fn < static_cast<int>(f.functions.size()) && language_of(f, f.functions[fn].module) != "python";
         return b(cpp || std::find(f.entries.begin(), f.entries.end(), fn) != f.entries.end());
       }},
  };
}

Table string_table() {
  return {
      {"value", [](const FactSet& f, size_t i) { return s(f.strings[i].value); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.strings[i].function)); }},
  };
}

// One list of metric fields, read by the field tables of functions and modules and by the reports.
using MetricGetter = FieldValue (*)(const CodeMetrics&);
const std::vector<std::pair<std::string_view, MetricGetter>>& metric_getters() {
  static const std::vector<std::pair<std::string_view, MetricGetter>> getters = {
      {"cyclomatic", [](const CodeMetrics& m) { return FieldValue{m.cyclomatic}; }},
      {"operators_distinct", [](const CodeMetrics& m) { return FieldValue{m.operators_distinct}; }},
      {"operands_distinct", [](const CodeMetrics& m) { return FieldValue{m.operands_distinct}; }},
      {"operators_total", [](const CodeMetrics& m) { return FieldValue{m.operators_total}; }},
      {"operands_total", [](const CodeMetrics& m) { return FieldValue{m.operands_total}; }},
      {"halstead_volume", [](const CodeMetrics& m) { return FieldValue{m.halstead_volume}; }},
      {"halstead_difficulty", [](const CodeMetrics& m) { return FieldValue{m.halstead_difficulty}; }},
      {"halstead_effort", [](const CodeMetrics& m) { return FieldValue{m.halstead_effort}; }},
      {"sloc", [](const CodeMetrics& m) { return FieldValue{m.sloc}; }},
      {"lloc", [](const CodeMetrics& m) { return FieldValue{m.lloc}; }},
      {"comment_lines", [](const CodeMetrics& m) { return FieldValue{m.comment_lines}; }},
      {"mi_original", [](const CodeMetrics& m) { return FieldValue{m.mi_original}; }},
      {"mi_normalized", [](const CodeMetrics& m) { return FieldValue{m.mi_normalized}; }},
      {"mi_comments", [](const CodeMetrics& m) { return FieldValue{m.mi_comments}; }},
  };
  return getters;
}

// Adds the metric fields; a fact no metrics engine measured has none (conditions on them never hold).
template <typename Fact>
void add_metric_fields(Table& t, const std::vector<Fact> FactSet::* member) {
  for (const auto& [name, getter] : metric_getters()) {
    MetricGetter get = getter;
    t.push_back({std::string(name), [member, get](const FactSet& f, size_t i) {
                   const CodeMetrics& m = (f.*member)[i].metrics;
                   return m.measured ? get(m) : FieldValue{};
                 }});
  }
}

Table function_table() {
  Table t = {
      {"name", [](const FactSet& f, size_t i) { return s(f.functions[i].name); }},
      {"qualname", [](const FactSet& f, size_t i) { return s(f.functions[i].qualname); }},
      {"class_name", [](const FactSet& f, size_t i) { return s(f.functions[i].class_name); }},
      {"kind", [](const FactSet& f, size_t i) { return s(std::string(to_string(f.functions[i].kind))); }},
      {"decorators", [](const FactSet& f, size_t i) { return FieldValue{f.functions[i].decorators}; }},
      {"language", [](const FactSet& f, size_t i) { return s(language_of(f, f.functions[i].module)); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.functions[i].reachable); }},
      {"executed_at_import", [](const FactSet& f, size_t i) { return b(f.functions[i].executed_at_import); }},
      {"input_generator", [](const FactSet& f, size_t i) { return b(f.functions[i].input_generator); }},
  };
  add_metric_fields(t, &FactSet::functions);
  return t;
}

Table module_table() {
  Table t = {
      {"language", [](const FactSet& f, size_t i) { return s(std::string(to_string(f.modules[i].language))); }},
      {"role", [](const FactSet& f, size_t i) { return s(f.modules[i].role); }},
  };
  add_metric_fields(t, &FactSet::modules);
  return t;
}

Table extension_table() {
  return {
      {"binding", [](const FactSet& f, size_t i) { return s(f.extensions[i].binding); }},
      {"name", [](const FactSet& f, size_t i) { return s(f.extensions[i].name); }},
      {"loader", [](const FactSet& f, size_t i) { return s(f.extensions[i].loader); }},
      {"functions", [](const FactSet& f, size_t i) { return FieldValue{f.extensions[i].functions}; }},
      {"sources_unresolved", [](const FactSet& f, size_t i) { return b(f.extensions[i].sources_unresolved); }},
  };
}

Table output_table() {
  return {
      {"name", [](const FactSet& f, size_t i) { return s(f.outputs[i].name); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.outputs[i].function)); }},
      {"written", [](const FactSet& f, size_t i) { return b(f.outputs[i].written); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.outputs[i].reachable); }},
  };
}

Table input_table() {
  return {
      {"name", [](const FactSet& f, size_t i) { return s(f.inputs[i].name); }},
      {"function", [](const FactSet& f, size_t i) { return s(f.function_name(f.inputs[i].function)); }},
      {"read", [](const FactSet& f, size_t i) { return b(f.inputs[i].read); }},
      {"unread_in", [](const FactSet& f, size_t i) { return s(f.inputs[i].unread_in); }},
      {"reachable", [](const FactSet& f, size_t i) { return b(f.inputs[i].reachable); }},
  };
}

struct Tables {
  std::array<Table, 16> by_kind;
  std::array<std::vector<std::string>, 16> names;
  Tables() {
    by_kind = {call_table(),      launch_table(), import_table(), write_table(),  name_table(),   global_table(),
               handler_table(),   class_table(),  cast_table(),   return_table(), string_table(), function_table(),
               extension_table(), module_table(), output_table(), input_table()};
    for (size_t k = 0; k < by_kind.size(); ++k)
      for (const auto& [name, getter] : by_kind[k]) names[k].push_back(name);
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

constexpr std::array<std::string_view, 16> kKindNames = {
    "call", "launch", "import", "write",    "name",      "global", "handler", "class",
    "cast", "return", "string", "function", "extension", "module", "output",  "input"};

}  // namespace

std::vector<std::pair<std::string_view, FieldValue>> metric_fields(const CodeMetrics& metrics) {
  std::vector<std::pair<std::string_view, FieldValue>> out;
  for (const auto& [name, getter] : metric_getters()) out.emplace_back(name, getter(metrics));
  return out;
}

std::optional<FactKind> parse_fact_kind(std::string_view name) {
  for (size_t k = 0; k < kKindNames.size(); ++k)
    if (kKindNames[k] == name) return static_cast<FactKind>(k);
  return std::nullopt;
}

std::string_view to_string(FactKind kind) { return kKindNames[static_cast<size_t>(kind)]; }

const std::vector<std::string>& field_names(FactKind kind) { return tables().names[static_cast<size_t>(kind)]; }

size_t fact_count(const FactSet& f, FactKind kind) {
  switch (kind) {
    case FactKind::Call:
      return f.calls.size();
    case FactKind::Launch:
      return f.launches.size();
    case FactKind::Import:
      return f.imports.size();
    case FactKind::Write:
      return f.writes.size();
    case FactKind::Name:
      return f.names.size();
    case FactKind::Global:
      return f.globals.size();
    case FactKind::Handler:
      return f.handlers.size();
    case FactKind::Class:
      return f.classes.size();
    case FactKind::Cast:
      return f.casts.size();
    case FactKind::Return:
      return f.returns.size();
    case FactKind::String:
      return f.strings.size();
    case FactKind::Function:
      return f.functions.size();
    case FactKind::Extension:
      return f.extensions.size();
    case FactKind::Module:
      return f.modules.size();
    case FactKind::Output:
      return f.outputs.size();
    case FactKind::Input:
      return f.inputs.size();
  }
  return 0;
}

FieldValue fact_field(const FactSet& facts, FactKind kind, size_t index, std::string_view field) {
  for (const auto& [name, getter] : tables().by_kind[static_cast<size_t>(kind)])
    if (name == field) return getter(facts, index);
  return std::monostate{};
}

Span fact_span(const FactSet& f, FactKind kind, size_t i) {
  switch (kind) {
    case FactKind::Call:
      return f.calls[i].span;
    case FactKind::Launch:
      return f.launches[i].span;
    case FactKind::Import:
      return f.imports[i].span;
    case FactKind::Write:
      return f.writes[i].span;
    case FactKind::Name:
      return f.names[i].span;
    case FactKind::Global:
      return f.globals[i].span;
    case FactKind::Handler:
      return f.handlers[i].span;
    case FactKind::Class:
      return f.classes[i].span;
    case FactKind::Cast:
      return f.casts[i].span;
    case FactKind::Return:
      return f.returns[i].span;
    case FactKind::String:
      return f.strings[i].span;
    case FactKind::Function:
      return f.functions[i].span;
    case FactKind::Extension:
      return f.extensions[i].span;
    case FactKind::Module:
      return f.modules[i].span;
    case FactKind::Output:
      return f.outputs[i].span;
    case FactKind::Input:
      return f.inputs[i].span;
  }
  return {};
}

std::optional<Language> fact_language(const FactSet& f, FactKind kind, size_t i) {
  int module = -1;
  switch (kind) {
    case FactKind::Call:
      module = f.calls[i].module;
      break;
    case FactKind::Launch:
      module = f.launches[i].module;
      break;
    case FactKind::Global:
      module = f.globals[i].module;
      break;
    case FactKind::Cast:
      module = f.casts[i].module;
      break;
    case FactKind::Function:
      module = f.functions[i].module;
      break;
    case FactKind::Module:
      module = static_cast<int>(i);
      break;
    default:
      return std::nullopt;  // kinds without a `language` field are not filtered
  }
  if (module < 0 || module >= static_cast<int>(f.modules.size())) return Language::Python;
  return f.modules[module].language;
}

Span Module::host_span(const SourceFile& host, uint32_t begin, uint32_t end) const {
  uint32_t hb = begin;
  uint32_t he = end;
  if (!map.empty()) {
    hb = map.host_offset(begin);
    // The end is exclusive: map the last byte and step past it.
    he = end > begin ? map.host_offset(end - 1) + 1 : hb;
  }
  if (he < hb) he = hb;
  return host.span(hb, he);
}

}  // namespace kgate
