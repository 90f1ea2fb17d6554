// The dtype contract of a file (docs/dtype-contract.md): the lowest floating precision its task
// computes at. Resolved, first that applies:
//   1. forced for every file: `--contract DTYPE`, or `--task`'s manifest (its strictest dtype);
//   2. the reference its harness profile names beside it (`contract.reference`, reference.py): the
//      lowest floating dtype the reference converts to anywhere outside a __main__ block, else fp32;
//   3. `.kgate.yaml` `contract:`;
//   4. the harness profile's default (`contract.default`: KernelBench runs fp32 unless told otherwise);
// otherwise unknown, and precision findings are warnings that say so.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "analyzers/core/facts.h"
#include "analyzers/ingest/ingest.h"

namespace kgate {

struct AnalysisContext;  // analyzers/pipeline/pipeline.h

// The contract a reference's facts give: the lowest floating dtype its casts name outside __main__
// blocks (flags excluded), or fp32 (torch's default dtype) when it converts to none.
DtypeContract contract_of_reference(const FactSet& reference, const std::string& source);

// Contracts read from reference files, memoised per path and shared by the files of a batch.
class ReferenceContracts {
 public:
  // The contract `reference` gives (thread-safe). Unreadable or unparsable: unknown.
  DtypeContract of(const std::filesystem::path& reference, const ingest::Limits& limits);

 private:
  std::mutex mutex_;
  std::map<std::string, DtypeContract> memo_;
};

// The contract of the file at `path`, whose facts (and harness) are extracted; see the header comment.
DtypeContract resolve_contract(const std::string& path, const FactSet& facts, const AnalysisContext& context);

}  // namespace kgate
