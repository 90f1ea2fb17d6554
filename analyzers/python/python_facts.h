// Python and Triton facts from tree-sitter: imports, the alias table, calls with resolved names,
// writes, classes, Triton launches, load_inline sources with their source maps, and reachability
// from ModelNew.forward.
#pragma once

#include <string>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/harness/harness.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python {

// A compiled module that a C++ file beside the submission defines with PYBIND11_MODULE(name, m):
// `import name` in the submission reaches it, as it would once the harness built that file.
struct SiblingModule {
  std::string name;  // the module name PYBIND11_MODULE gives
  std::string file;  // the file's name inside the submission's directory
};

// Parses `file` and fills `facts` (modules[0] is the host file; embedded C++/CUDA strings follow).
// Parse problems (syntax errors, nesting too deep, too many embedded sources) go to `diagnostics`
// as input-* findings; facts are still extracted from whatever parsed. The harness profile is chosen
// from the module's outline after the first pass (`harness`: the profiles, or one forced); its entry
// classes, methods and functions become the roots of reachability.
// `siblings`: the compiled modules the submission's directory defines (see SiblingModule).
// Returns the syntax tree, for the metrics to measure without a second parse; null when the file was
// not analysed (no tree, nesting too deep, the budget spent).
ts::TreePtr extract_facts(const SourceFile& file, const ingest::Limits& limits, FactSet& facts,
                          std::vector<Diagnostic>& diagnostics, const HarnessChoice& harness = {},
                          const std::vector<SiblingModule>& siblings = {});

}  // namespace kgate::python
