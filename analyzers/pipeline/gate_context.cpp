// GateContext: config lookup, policy, harness profile and limits for each analysed file.
#include "analyzers/pipeline/gate_context.h"

#include "analyzers/core/dtype_rank.h"
#include "analyzers/tasks/task_manifest.h"

#include <cstdlib>
#include <optional>
#include <system_error>

namespace kgate {

namespace fs = std::filesystem;

Result<HarnessSet> load_harness_profiles(const fs::path& rules_dir) {
  // A rules directory of one's own (tests, a team's extra rules) without harness profiles uses the
  // shipped ones; one that has the folder must have valid profiles in it.
  std::error_code ec;
  const fs::path own = rules_dir / "harnesses";
  const fs::path dir = fs::is_directory(own, ec) ? own : default_rules_dir() / "harnesses";
  auto set = load_harnesses(dir);
  if (!set) return Error{"harness profiles: " + set.error()};
  return set;
}

// A task's contract: the strictest dtype its manifest runs (its code must hold at every one of them),
// or, for a bare KernelBench problem file, what the file itself converts to.
DtypeContract task_contract(const runtime::Task& task) {
  if (task.manifest.empty()) {
    ReferenceSummaries references;
    DtypeContract found = references.of(task.reference, ingest::Limits{}).contract;
    if (found.known()) found.source = "task " + task.name;
    return found;
  }
  std::string strictest;
  for (runtime::DType dtype : task.dtypes) {
    const std::string name(runtime::dtype_name(dtype));
    if (mantissa_bits(name).value_or(-1) > mantissa_bits(strictest).value_or(-1)) strictest = name;
  }
  return DtypeContract{strictest, "task " + task.name};
}

Result<GateContext> GateContext::make(const GateOptions& options, const RuleSet& rules, const HarnessSet& harnesses,
                                      const fs::path& rules_dir) {
  GateContext context(options, rules, harnesses, rules_dir);
  // --task's manifest, read once: it gives the policy and the contract.
  std::optional<runtime::Task> task;
  if (!options.task.empty()) {
    auto where = runtime::find_task(rules_dir.parent_path() / "tasks", options.task);
    if (!where) return Error{"--task: " + where.error()};
    auto loaded = runtime::load_task(*where);
    if (!loaded) return Error{"--task: " + loaded.error()};
    task = std::move(*loaded);
  }
  if (task) {
    // Read once: every file's context takes the entry's outputs and names from it (context_for).
    context.task_reference_ =
        std::make_shared<const ReferenceSummary>(context.reference_summaries_->of(task->reference, options.limits));
  }
  if (!options.policy.empty())
    context.forced_policy_ = options.policy;
  else if (task)
    context.forced_policy_ = task->policy.category;
  if (!options.contract.empty()) {
    if (!mantissa_bits(options.contract))
      return Error{"--contract: unknown dtype '" + options.contract + "' (known: " + contract_dtype_names() + ")"};
    context.forced_contract_ = {options.contract, "--contract"};
  } else if (task) {
    context.forced_contract_ = task_contract(*task);
  }
  if (!options.harness.empty() && options.harness != "auto" && !harnesses.find(options.harness)) {
    std::string known;
    for (const auto& name : harnesses.names()) known += (known.empty() ? "" : ", ") + name;
    return Error{"--harness: unknown harness profile '" + options.harness + "' (known: " + known + ")"};
  }
  return context;
}

std::string GateContext::nearest_config(const std::string& path) {
  const std::string dir = fs::path(path).parent_path().string();
  auto at = nearest_.find(dir);
  if (at != nearest_.end()) return at->second;
  auto found = find_config(path);
  return nearest_[dir] = found ? found->string() : std::string{};
}

Result<const Config*> GateContext::config_for(const std::string& path) {
  const std::string key = !options_.config_file.empty() ? options_.config_file
                          : options_.find_configs       ? nearest_config(path)
                                                        : std::string{};
  auto at = configs_.find(key);
  if (at != configs_.end()) return &at->second;
  Config config;
  if (!key.empty()) {
    auto loaded = load_config(key);
    if (!loaded) return Error{loaded.error()};
    config = std::move(*loaded);
    if (!config.harness.empty() && config.harness != "auto" && !harnesses_.find(config.harness))
      return Error{key + ": harness: unknown harness profile '" + config.harness + "'"};
  }
  return &configs_.emplace(key, std::move(config)).first->second;
}

std::string GateContext::policy_name(const Config& config, const std::string& path) const {
  if (!forced_policy_.empty()) return forced_policy_;
  if (!config.policy.empty()) return config.policy;
  return std::string(default_policy_name(ingest::kind_from_path(path)));
}

std::string GateContext::harness_name(const Config& config) const {
  if (!options_.harness.empty() && options_.harness != "auto") return options_.harness;
  if (!config.harness.empty() && config.harness != "auto") return config.harness;
  return "auto";
}

Result<const AnalysisContext*> GateContext::context_for(const std::string& path) {
  auto config = config_for(path);
  if (!config) return Error{config.error()};
  const std::string policy = policy_name(**config, path);
  const auto key = std::make_pair((*config)->source, policy);
  if (auto at = contexts_.find(key); at != contexts_.end()) return at->second;
  auto loaded = policies_.find(policy);
  if (loaded == policies_.end()) {
    auto result = load_policy(rules_dir_ / "policies", policy);
    if (!result) return Error{result.error()};
    loaded = policies_.emplace(policy, std::move(*result)).first;
  }
  AnalysisContext& context = storage_.emplace_back();
  context.rules = &rules_;
  context.policy = &loaded->second;
  context.config = *config;
  context.limits = options_.limits;
  context.only_rules = options_.only;
  context.cpp_engine = options_.cpp_engine;
  context.ptx = options_.ptx;
  context.compile_commands = options_.compile_commands;
  context.harness.set = &harnesses_;
  const std::string harness = harness_name(**config);
  if (harness != "auto") context.harness.forced = harness;
  context.harness.extra_entry_functions = (*config)->entry_functions;
  if (task_reference_) {
    // Where the harness binds an output-argument entry's outputs: after get_inputs()'s tensors.
    if (task_reference_->tensor_inputs && task_reference_->outputs)
      context.harness.output_positions = std::make_pair(*task_reference_->tensor_inputs, *task_reference_->outputs);
    name_entry_parameters(*task_reference_, context.harness);
  }
  context.contract = forced_contract_;
  context.reference_summaries = reference_summaries_;
  context.task_reference = task_reference_;
  contexts_.emplace(key, &context);
  return &context;
}

}  // namespace kgate
