// Task policies (rules/policies/<name>.yaml): which torch ops a task category may keep in forward.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/status.h"
#include "analyzers/ingest/ingest.h"

namespace kgate {

// A policy with its `extends` chain already merged: lists accumulate from the root ancestor down,
// severity overrides of a child win, and a child's dtypes replace its parent's.
struct Policy {
  std::string name;
  std::string description;
  std::vector<std::string> chain;                                    // root ancestor first, this policy last
  std::vector<std::string> allowed_ops;                              // globs of resolved names that may stay in forward
  std::vector<std::string> forbidden_ops;                            // the category's core op: never allowed
  std::vector<std::string> disabled_rules;                           // ids or globs
  std::vector<std::pair<std::string, Severity>> severity_overrides;  // id or glob; most specific wins
  std::vector<std::string> dtypes;

  // A call whose resolved name this returns true for is dropped by rules with policy_filter.
  bool allows(std::string_view resolved) const;
  bool forbids(std::string_view resolved) const;
  bool disables(std::string_view rule) const;
  std::optional<Severity> severity_override(std::string_view rule) const;
};

// Loads `policies_dir/<name>.yaml`, validated against `policies_dir/policy.schema.json` when that
// schema exists, following `extends` (cycles and missing parents are errors).
Result<Policy> load_policy(const std::filesystem::path& policies_dir, std::string_view name);
// Names of every policy file, sorted.
std::vector<std::string> policy_names(const std::filesystem::path& policies_dir);

// The policy a file gets when neither --policy, --task nor a config names one: kernelbench for
// Python submissions, repository for raw CUDA C++ (where host cuBLAS calls can be legitimate).
std::string_view default_policy_name(ingest::FileKind kind);

// The policy of a task (`policy.category` of its task.yaml; kernelbench for a bare KernelBench .py).
// `task` is what --task accepts: a task name or Category/name under tasks_dir, a task directory, a
// task.yaml, or a KernelBench problem file (runtime::find_task).
Result<std::string> task_policy_name(const std::filesystem::path& tasks_dir, std::string_view task);

}  // namespace kgate
