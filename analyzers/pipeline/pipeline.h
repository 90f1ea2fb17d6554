// The static pipeline for one file: ingest -> facts -> rules + policy -> findings -> verdict.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/harness/harness.h"
#include "analyzers/ingest/ingest.h"

namespace kgate {

class RuleSet;             // analyzers/rules/rule_set.h
struct Policy;             // analyzers/rules/policy.h
struct Config;             // analyzers/core/config.h
class ReferenceSummaries;  // analyzers/pipeline/contract.h
struct ReferenceSummary;   // analyzers/pipeline/contract.h

struct FileResult {
  std::string path;
  SubmissionFormat format = SubmissionFormat::Unknown;
  bool rejected = false;  // any unsuppressed finding of severity error
  // "pass", "reject", "unjudged" (no entry found: never a pass) or "not-a-submission" (a kernel
  // module with no harness entry, or the harness's own reference file).
  std::string verdict = "pass";
  std::string harness;               // the harness profile that applied; empty: none recognised
  DtypeContract contract;            // the dtype contract the precision rules judged against (contract.h)
  std::vector<Diagnostic> findings;  // sorted by line, col, rule
  size_t suppressed = 0;
  nlohmann::json metrics = nlohmann::json::object();
  // The kernels the submission defines itself (CUDA __global__ and @triton.jit functions): the runtime
  // tells the candidate's own kernels from library kernels in its CUPTI trace by these names.
  std::vector<std::string> kernels;
  // Whether the harness's entry was found in the file (ModelNew.forward, custom_kernel, ...), and the
  // files beside it that its analysis read as its own sources (load(sources=[...]), a sibling
  // PYBIND11 module it imports): `check --submission` folds a directory's results with these.
  bool entry_found = false;
  std::vector<std::string> sources_read;
  // The submission's Python helper modules (files beside it that it imports) whose code the analysis
  // followed, with the SHA-256 of the text analysed: a changed helper changes the verdict, so the
  // audit's resume key includes them.
  std::vector<std::pair<std::string, std::string>> helpers_read;
};

struct AnalysisContext {
  const RuleSet* rules = nullptr;
  const Policy* policy = nullptr;
  const Config* config = nullptr;
  ingest::Limits limits;
  // Fixture mode: only these rule ids run (empty: every enabled rule).
  std::vector<std::string> only_rules;
  // The engine for C++/CUDA (embedded strings and raw files): "auto" (Clang where it is built in,
  // tree-sitter-cuda otherwise), "tree-sitter", or "none" (Python facts only: the fastest pre-filter).
  std::string cpp_engine = "auto";
  // The PTX witness (analyzers/ptx/witness.h) on each CUDA source: "auto" (where NVRTC is built in) or "off".
  std::string ptx = "auto";
  // Directory with compile_commands.json (`kgate check -p DIR`): raw C++ files parse with real headers.
  std::string compile_commands;
  // The harness profiles and any profile or entry functions forced by --harness or .kgate.yaml.
  HarnessChoice harness;
  // The dtype contract forced for every file (--contract, --task's manifest); unknown: each file's is
  // read from its harness's reference beside it, the config, or the harness's default (contract.h).
  DtypeContract contract;
  // Summaries of reference files, shared by the files of a batch (thread-safe); may be null.
  std::shared_ptr<ReferenceSummaries> reference_summaries;
  // --task's reference, summarised (null without --task): its calls and seeded draws mark the
  // candidate's alike ones (contract.h, mark_reference_mirrors), as a reference beside the file does.
  std::shared_ptr<const ReferenceSummary> task_reference;
};

FileResult analyze_file(const std::string& path, const AnalysisContext& context);
// Same, on text already in memory (the Python bindings and the fuzzers use this).
FileResult analyze_source(const std::string& path, const std::string& text, const AnalysisContext& context);

}  // namespace kgate
