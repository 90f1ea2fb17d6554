// Harness profiles (rules/harnesses/*.yaml): how one evaluation harness calls a submission, and which
// profile a file belongs to. Loaded once, like the rules; chosen per file from the file's outline.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/core/status.h"

namespace kgate {

// What a file offers at its top level: the facts that recognise a harness. The Python extractor
// builds it after its first pass (before reachability, which needs the entry); the pipeline builds
// it for C++ files from their includes.
struct ModuleOutline {
  bool python = true;                    // a Python module; false: C++/CUDA source
  std::string file_name;                 // "submission.py"
  std::vector<std::string> classes;      // top-level classes and class bindings (ModelNew = Impl)
  std::vector<std::string> functions;    // top-level plain functions (kernels excluded)
  std::vector<std::string> c_functions;  // C++: host functions with C linkage (extern "C": ctypes can load them)
  std::vector<std::string> includes;     // C++ #include targets
  bool own_kernels = false;              // kernels defined or compiled by the file, any kernel language
  bool module_class = false;             // a subclass of torch.nn.Module
  bool config_entry_function = false;    // defines a function that the config's entry_functions names
};

// One alternative of `recognise:`: every key that is set must hold.
struct HarnessSignal {
  int kind = -1;  // -1 any, 0 python, 1 cpp
  std::vector<std::string> classes;
  std::vector<std::string> functions;
  std::vector<std::string> c_functions;
  std::vector<std::string> includes;
  int own_kernels = -1;  // -1 unset, 0 false, 1 true
  int module_class = -1;
  int config_entry_function = -1;
  std::optional<int> priority;  // this alternative's rank, when it differs from the profile's
  bool holds(const ModuleOutline& outline) const;
};

enum class WithoutEntry { Unjudged, NotASubmission, Judged };
std::string_view to_string(WithoutEntry value);

struct HarnessProfile {
  std::string name;
  std::string summary;
  int priority = 0;
  std::vector<HarnessSignal> recognise;
  // entry:
  std::vector<std::string> entry_classes;
  std::vector<std::string> entry_methods;
  std::vector<std::string> entry_functions;
  std::vector<std::string> outputs;  // parameter-name globs of outputs the entry must write
  // imports:
  std::vector<std::string> imports_allowed;    // module globs
  std::vector<std::string> imports_forbidden;  // module globs
  std::vector<std::string> reference_files;    // file-name globs
  // C++: functions the harness's headers define for its reference or checker (GPU MODE's
  // reference.cuh: reference, generate_input, check_implementation); a call of one is Call::harness_reference.
  std::vector<std::string> reference_functions;
  WithoutEntry without_entry = WithoutEntry::Unjudged;
  // contract: the files beside a candidate whose dtypes give the task's dtype contract (reference.py),
  // and the harness's own default when none is there (KernelBench runs fp32 unless told otherwise).
  std::vector<std::string> contract_reference;
  std::string contract_default;
  std::string runtime_call;  // for the runtime stage (issue 21); not read yet
  std::string file;

  // The highest priority of the alternatives that hold; nullopt when none does.
  std::optional<int> recognition(const ModuleOutline& outline) const;
  bool names_reference(std::string_view file_name) const;
  bool allows_import(std::string_view module) const;
  bool forbids_import(std::string_view module) const;
  bool output_parameter(std::string_view name) const;
};

class HarnessSet {
 public:
  // Sorted by priority (highest first), then name.
  const std::vector<HarnessProfile>& profiles() const { return profiles_; }
  const HarnessProfile* find(std::string_view name) const;
  // The profile `forced` names (which must exist: see find), else the profile whose recognising
  // alternative has the highest priority (ties: the profile's own priority, then its name); nullptr
  // when none recognises the file.
  const HarnessProfile* select(const ModuleOutline& outline, std::string_view forced = {}) const;
  // The profile whose `reference_files` name this file (reference.py, task.py, reference.cuh), for a
  // file no profile's entry recognises: the harness's own file, not a candidate.
  const HarnessProfile* naming_reference(std::string_view file_name) const;
  void add(HarnessProfile profile);
  std::vector<std::string> names() const;

 private:
  std::vector<HarnessProfile> profiles_;
};

// Loads every `dir/*.yaml`, validated against `dir/harness.schema.json`; the name must equal the stem.
Result<HarnessSet> load_harnesses(const std::filesystem::path& dir);

// What the CLI, the Python module and the tests pass down: the profiles, a profile named by
// --harness or .kgate.yaml (empty: detect), and extra entry functions a task or config names (select
// sets the outline's config_entry_function when the file defines one of them).
// Without a set, the profiles of the default rules directory apply (default_harnesses()).
struct HarnessChoice {
  const HarnessSet* set = nullptr;
  std::string forced;
  std::vector<std::string> extra_entry_functions;
  // --task: the entry function parameters [first, first + count) the harness binds to output buffers
  // (an output-argument entry), whatever their names.
  std::optional<std::pair<size_t, size_t>> output_positions;
  // --task: the entry parameters its reference declares outputs ("out", "inout") and pointer inputs
  // ("in") by name (LeetGPU's get_solve_signature), whatever the profile's output names say.
  std::vector<std::string> output_names;
  std::vector<std::string> input_names;
  // Of those, the ones the task says hold one element (a loss, a count): arithmetic on them is glue.
  std::vector<std::string> one_element_names;
  // The element dtype of each entry parameter the reference declares, by position ("int8" for
  // LeetGPU's ctypes.POINTER(ctypes.c_int8); "" where it names none): what a kernel loads through it.
  std::vector<std::string> param_dtypes;
  // The profile whose evaluator script beside the file (GPU MODE's eval.py) named
  // extra_entry_functions (pipeline/evaluator.h): a file that defines one of them is entered there
  // under that profile.
  const HarnessProfile* evaluator_profile = nullptr;
  const HarnessProfile* select(const ModuleOutline& outline) const;
  const HarnessProfile* naming_reference(std::string_view file_name) const;
};

// The profiles of $KGATE_RULES_DIR/harnesses, else of the source tree's rules/harnesses, loaded once
// (for callers that build an AnalysisContext by hand: tests, fuzzers, benchmarks). Empty when they
// cannot be loaded; `kgate rules --validate` and the CLI report why.
const HarnessSet& default_harnesses();

}  // namespace kgate
