// Fuzz target: the whole static pipeline (ingest, Python facts, tree-sitter C++ facts, rules, suppressions) on one .py
// buffer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"

namespace {

// Rules and the kernelbench policy load once: they come from the repository, not from the input.
struct ShippedRules {
  kgate::RuleLoad load = kgate::load_rules(std::string(KGATE_SOURCE_DIR) + "/rules");
  kgate::Result<kgate::Policy> policy =
      kgate::load_policy(std::string(KGATE_SOURCE_DIR) + "/rules/policies", "kernelbench");
};

const ShippedRules& shipped() {
  static const ShippedRules rules;
  return rules;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ShippedRules& rules = shipped();
  kgate::AnalysisContext context;
  context.rules = &rules.load.rules;
  context.policy = rules.policy ? &*rules.policy : nullptr;
  // Clang is not linked here (fuzz_clang_embedded covers it where built): tree-sitter-cuda does C++.
  context.cpp_engine = "tree-sitter";
  // NVRTC is NVIDIA's compiler, not this project's code, and runs in its own process (kgate-nvrtc, whose
  // crashes the witness turns into notes: tests/cli/bad_input_test.sh keeps one that the fuzzer found);
  // fuzzing it would spend the run on a compiler per input.
  context.ptx = "off";
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)kgate::analyze_source("fuzz.py", text, context);
  return 0;
}
