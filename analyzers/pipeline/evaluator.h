// The functions a harness's evaluator script calls in the submission's module. GPU MODE runs
// `eval.py` beside the submission, which imports it as `submission` and calls `custom_kernel`, or,
// for a task that names other entries (princeton's cross_entropy_forward and _backward), those:
//   from submission import custom_kernel
//   def load_submission(): import submission; return submission
//   mod = load_submission(); check(mod)   ...   def check(mod): mod.cross_entropy_forward(x, t)
// Read from the script's syntax tree: what `from M import N` imports, and the attributes read from a
// name that holds module M (imported, returned by a function of the script, assigned from such a
// function's result, or passed to a parameter of one), including `hasattr(M, "N")` and
// `for n in ("a", "b"): getattr(M, n)`.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

#include "analyzers/harness/harness.h"
#include "analyzers/ingest/ingest.h"

namespace kgate {

struct AnalysisContext;  // analyzers/pipeline/pipeline.h

// Module name -> the names an evaluator script reads from it (dunder names left out).
std::map<std::string, std::set<std::string>> read_evaluated_names(TSNode root, std::string_view source);

// The module names a harness imports the submission at `path` under: its file stem, and the name a
// GPU MODE task.yml beside it gives the file whose source is "@SUBMISSION@".
std::set<std::string> submission_module_names(const std::filesystem::path& path);

// Where neither --harness nor a config names the entry: the functions that an evaluator beside the
// Python file at `path` (a `.py` of some profile's reference_files: GPU MODE's eval.py) calls in the
// file's module become entry functions under that profile, for a file that defines one of them.
HarnessChoice with_entries_beside(const std::string& path, const AnalysisContext& context, HarnessChoice choice);

}  // namespace kgate
