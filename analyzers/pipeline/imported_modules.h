// Python modules of the submission's own directory that its entry calls into: `import kernels`,
// `from ops import fused_linear`, `from row_softmax import RowSoftmax`, `from ext import built` with a
// load_inline result bound at the helper's top level. A submission judged file by file would
// otherwise see only an unknown call where its work is done: "reaches no kernel" for an honest file,
// and a library fallback hidden in the helper would pass unseen.
//
// For every reachable call of the host into such a module, the module is analysed with that call as
// its only root (the same access written at the end of the module's text, as a function of its own),
// and what the root reaches is summarised into the host at the call site: the module's live kernel
// launches, and its calls out of the module (torch.matmul, a tensor method). Those keep their
// resolved names, so every rule judges them as it judges the host's own; they are reported at the
// host's call, inside a function named after the module's (`fused_ops.linear_relu calls torch.matmul`).
// Modules the harness provides or forbids (GPU MODE's task, the reference) are never followed.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/harness/harness.h"
#include "analyzers/ingest/ingest.h"

namespace kgate {

// Extracts the facts of one Python text as the pipeline does for a file (Python, sibling sources,
// C++ and the cross-language link), under the given harness choice. Diagnostics are dropped: the
// module is judged as a file of its own where the submission is (check --submission).
using ExtractModule = std::function<void(const SourceFile& file, FactSet& facts, const HarnessChoice& harness)>;

// `sidecars`: a bundle's Python sidecars (name, text), which stand in for files of the same name.
// `depth`: how many imported modules deep this file is (the pipeline passes 0); modules are followed
// up to three deep, and never back into a file on the way.
// `files_read` (when given) gathers the helper files read from disk, with the SHA-256 of the text analysed:
// the audit's resume key includes them.
void follow_imported_modules(const SourceFile& file, FactSet& facts, const ingest::Limits& limits,
                             const std::vector<std::pair<std::string, std::string>>& sidecars,
                             const ExtractModule& extract, int depth = 0,
                             std::vector<std::string>* on_the_way = nullptr,
                             std::vector<std::pair<std::string, std::string>>* files_read = nullptr);

}  // namespace kgate
