// The dtype contract of a file (docs/dtype-contract.md): the lowest floating precision its task
// computes at. Resolved, first that applies:
//   1. forced for every file: `--contract DTYPE`, or `--task`'s manifest (its strictest dtype);
//   2. the reference its harness profile names beside it (`contract.reference`, reference.py): the
//      lowest floating dtype the reference converts to anywhere outside a __main__ block, else fp32;
//   3. `.kgate.yaml` `contract:`;
//   4. the harness profile's default (`contract.default`: KernelBench runs fp32 unless told otherwise);
// otherwise unknown, and precision findings are warnings that say so.
// The reference beside a file is summarised once (ReferenceSummaries): its contract, and its calls, which
// mark the candidate's calls written alike in a function of the same name (Call::mirrors_reference).
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzers/core/facts.h"
#include "analyzers/harness/harness.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/pipeline/task_seed.h"

namespace kgate {

struct AnalysisContext;  // analyzers/pipeline/pipeline.h

// The contract a reference's facts give: the lowest floating dtype its casts name outside __main__
// blocks (flags excluded), or fp32 (torch's default dtype) when it converts to none.
DtypeContract contract_of_reference(const FactSet& reference, const std::string& source);

// What the harness's reference beside a candidate says about the task: its dtype contract, and the
// calls its functions make, so that a candidate's identical call is the task's own behaviour
// (Call::mirrors_reference: a constructor that seeds as the reference's does to build equal weights).
struct ReferenceSummary {
  DtypeContract contract;
  // How the harness calls an output-argument entry for this reference (docs/runtime.md, Harness
  // entries): get_inputs()'s tensors, then one output per tensor Model.forward returns. Read from the
  // tuples and lists written in their returns; nullopt where they are not written out alike.
  std::optional<size_t> tensor_inputs;
  std::optional<size_t> outputs;
  // LeetGPU's challenge.py declares each parameter of solve in its get_solve_signature(): a dict of
  // name -> (ctypes type, "in" | "out" | "inout"). Outputs are the "out" and "inout" ones (an in-place
  // task writes its input); inputs the "in" pointers. Empty when the reference has no such dict.
  std::vector<std::string> output_names;
  std::vector<std::string> input_names;
  // Of those, the ones the task says hold one element (a loss, a count: `assert mse.shape == (1,)` in
  // its reference, or `torch.empty(1)` for that name in every test its generators build).
  std::vector<std::string> one_element_names;
  // Every parameter's element dtype in declaration order (HarnessChoice::param_dtypes).
  std::vector<std::string> param_dtypes;
  // (name of the enclosing function, resolved callee, the call's text without whitespace)
  std::set<std::tuple<std::string, std::string, std::string>> calls;
  // The draws its functions make from PyTorch's generator seeded by one of their inputs (task_seed.h).
  SeededDraws seeded;
  // As an evaluator script: module name -> the functions it calls there (evaluator.h).
  std::map<std::string, std::set<std::string>> evaluated;
};

// The value of a plain string literal ("in", 'out'); nullopt for anything else (f-strings, concatenations).
std::optional<std::string> string_value(TSNode node, std::string_view source);

// The element dtype a ctypes pointer type names (`ctypes.POINTER(ctypes.c_int8)` -> "int8"); "" for
// anything else.
std::string ctypes_pointee_dtype(std::string_view type);

// The positional layout of ReferenceSummary (tensor_inputs, outputs) read from a reference's facts.
void read_entry_layout(const FactSet& reference, ReferenceSummary& summary);

// ReferenceSummary::output_names and input_names from the dict literal a reference's
// get_solve_signature returns (LeetGPU's challenge.py), read from its syntax tree.
void read_solve_signature(TSNode root, std::string_view source, ReferenceSummary& summary);

// ReferenceSummary::one_element_names, among the names read_solve_signature found.
void read_one_element_params(TSNode root, std::string_view source, ReferenceSummary& summary);

// A Python call's key in ReferenceSummary::calls; nullopt for calls outside the host file's functions.
std::optional<std::tuple<std::string, std::string, std::string>> reference_call_key(const FactSet& facts,
                                                                                    const SourceFile& source,
                                                                                    const Call& call);

// The names a task's reference gives an output-argument entry's parameters (outputs, inputs, one-element
// tensors), set on the harness choice.
void name_entry_parameters(const ReferenceSummary& reference, HarnessChoice& choice);

// Summaries read from reference files, memoised per path and shared by the files of a batch.
class ReferenceSummaries {
 public:
  // The summary of `reference` (thread-safe). Unreadable or unparsable: an unknown contract, no calls.
  ReferenceSummary of(const std::filesystem::path& reference, const ingest::Limits& limits);

 private:
  std::mutex mutex_;
  std::map<std::string, ReferenceSummary> memo_;
};

// The summary of the Python file `name` beside `path` (not `path` itself; a glob names none), memoised
// in the context's summaries; nullopt when there is no such file.
std::optional<ReferenceSummary> summary_beside(const std::string& path, const std::string& name,
                                               const AnalysisContext& context);

// The reference the file's harness profile names beside `path` (`contract.reference`), summarised;
// nullopt when there is none.
std::optional<ReferenceSummary> reference_beside(const std::string& path, const FactSet& facts,
                                                 const AnalysisContext& context);

// The contract of the file whose facts (and harness) are extracted, given its reference beside it (or
// null); see the header comment.
DtypeContract resolve_contract(const FactSet& facts, const AnalysisContext& context, const ReferenceSummary* beside);

// Marks the host file's calls that its reference makes alike, and its seeds and draws that repeat the
// reference's seeded draws (Call::mirrors_reference). `root`: the host's Python syntax tree (null: none).
void mark_reference_mirrors(FactSet& facts, const SourceFile& source, TSNode root, const ReferenceSummary& reference);

}  // namespace kgate
