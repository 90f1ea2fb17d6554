#include "analyzers/pipeline/contract.h"

#include <system_error>
#include <vector>

#include "analyzers/core/config.h"
#include "analyzers/core/dtype_rank.h"
#include "analyzers/harness/harness.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/python/python_facts.h"

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

DtypeContract ReferenceContracts::of(const std::filesystem::path& reference, const ingest::Limits& limits) {
  const std::string key = reference.lexically_normal().string();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  }
  DtypeContract contract;
  std::vector<Diagnostic> diagnostics;
  if (auto source = ingest::read_source(key, {}, limits, diagnostics, false)) {
    FactSet facts;
    python::extract_facts(*source, limits, facts, diagnostics);
    contract = contract_of_reference(facts, reference.filename().string());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return memo_.emplace(key, contract).first->second;
}

DtypeContract resolve_contract(const std::string& path, const FactSet& facts, const AnalysisContext& context) {
  if (context.contract.known()) return context.contract;
  const HarnessSet& set = context.harness.set ? *context.harness.set : default_harnesses();
  const HarnessProfile* profile = facts.harness.empty() ? nullptr : set.find(facts.harness);
  if (profile) {
    const std::filesystem::path self(path);
    for (const std::string& name : profile->contract_reference) {
      const std::filesystem::path reference = self.parent_path() / name;
      if (reference.filename() == self.filename() || reference.extension() != ".py") continue;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(reference, ec)) continue;
      DtypeContract found;
      if (context.reference_contracts) {
        found = context.reference_contracts->of(reference, context.limits);
      } else {
        ReferenceContracts local;
        found = local.of(reference, context.limits);
      }
      if (found.known()) return found;
    }
  }
  if (context.config && !context.config->contract.empty())
    return {context.config->contract,
            context.config->source.empty() ? std::string(kConfigFileName) : context.config->source};
  if (profile && !profile->contract_default.empty())
    return {profile->contract_default, "the " + profile->name + " harness's default"};
  return {};
}

}  // namespace kgate
