// `kgate audit merge`: the logs of `--shard K/N` runs (a Slurm array, several machines) as one log
// and one report, the same set of records an unsharded audit of the same files writes.
#pragma once

#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate::audit {

struct MergeOutcome {
  std::vector<nlohmann::json> records;  // one per path, sorted by path
  nlohmann::json settings;              // the settings every input was made with (null: none recorded)
  size_t inputs = 0;
  size_t duplicates = 0;    // identical records of one path in several inputs, kept once
  size_t torn_dropped = 0;  // inputs whose torn last line (a shard killed mid-write) was dropped
};

// Reads OUT/results.jsonl and OUT/audit-settings.json of every input and writes the merged log and
// settings into `out_dir` (created; locked while written). Errors: an input without a log, inputs made
// under different settings (the error names the keys), one path with different records in two inputs
// (its file changed between the shards' runs: audit it again), `out_dir` equal to an input, or a write
// that failed. The caller renders the report from the returned records.
Result<MergeOutcome> merge_audits(const std::vector<std::filesystem::path>& inputs,
                                  const std::filesystem::path& out_dir);

}  // namespace kgate::audit
