// The facts behind a verdict, for `kgate facts FILE` (rule authors see what the rules see) and tests.
#pragma once

#include <string>

#include "analyzers/core/facts.h"
#include "analyzers/pipeline/pipeline.h"

namespace kgate {

// analyze_file, which also hands back the facts the rules judged (harness, contract and reachability
// included). A file abandoned at a limit keeps only its format.
FileResult analyze_file_keeping_facts(const std::string& path, const AnalysisContext& context, FactSet& facts);

}  // namespace kgate
