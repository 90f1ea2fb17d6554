// `kgate tasks lint`: rejects degenerate tasks. The manifest checks (schema, formulas, policy file)
// are torch-free; the reference checks run each reference on CPU in the embedded interpreter
// (runtime/tasklint.py measures, this file judges): shape symbols are module-level ints, the output
// is deterministic, depends on every input (M5), is not below its tolerance (M4), and the FLOP/byte
// formulas agree with torch.utils.flop_counter and the tensors' sizes on the public shapes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"
#include "runtime/task.h"

namespace kgate::runtime {

// Check ids, as printed and in JSON.
inline constexpr const char* kLintManifest = "manifest";    // load/schema/formula errors
inline constexpr const char* kLintPolicy = "policy";        // policy.category names no policy file
inline constexpr const char* kLintSymbols = "symbols";      // a shape symbol is not an int global
inline constexpr const char* kLintReference = "reference";  // the reference fails to import or run
inline constexpr const char* kLintNondeterministic = "nondeterministic";
inline constexpr const char* kLintConstantOutput = "constant-output";  // M5
inline constexpr const char* kLintBelowTolerance = "below-tolerance";  // M4
inline constexpr const char* kLintNonFinite = "nonfinite-output";
inline constexpr const char* kLintFlops = "flops";
inline constexpr const char* kLintBytes = "bytes";

// An output must stay above its tolerance even when it were this many times smaller: zeros must fail
// the contract against expected / kMagnitudeMargin (M4).
inline constexpr double kMagnitudeMargin = 3.0;
// A FLOP formula may count up to this factor more than FlopCounterMode (epilogues, softmax and the
// like that the counter does not count) and never less.
inline constexpr double kFlopsSlack = 1.5;
// A byte formula is at least the output's size and at most this factor over everything the reference
// touches (inputs, outputs, parameters and buffers).
inline constexpr double kBytesSlack = 4.0;

struct LintFinding {
  std::string check;
  std::string message;
};

struct TaskLint {
  std::filesystem::path path;
  std::string name;
  std::vector<LintFinding> findings;
  nlohmann::json measured = nlohmann::json::array();  // runtime/tasklint.py's facts per public shape set
  // A bare KernelBench file's input contract, as the judge infers it (runtime/input_contract.h).
  std::vector<InputSpec> inferred_inputs;
};

struct LintOptions {
  std::filesystem::path policies_dir;  // rules/policies: policy.category must name a file there
  std::uint64_t seed = 0;
};

// The findings for one public shape set (`shape_index`) from the facts runtime/tasklint.py measured.
// Pure: the unit tests feed it facts by hand.
std::vector<LintFinding> judge_facts(const Task& task, std::size_t shape_index, const nlohmann::json& facts);

// Every task named by `paths` (a task dir, a task.yaml, a bare KernelBench .py file, or a directory of
// tasks); an error when a path holds no task.
Result<std::vector<std::filesystem::path>> lint_targets(const std::vector<std::filesystem::path>& paths);

// Lints each task: manifest, then the reference on every public shape set. An error only when the
// embedded interpreter cannot start; a broken task is a finding.
Result<std::vector<TaskLint>> lint_tasks(const std::vector<std::filesystem::path>& task_dirs,
                                         const LintOptions& options);

}  // namespace kgate::runtime
