// Maintainability metrics of C++/CUDA code: raw files and the sources a submission embeds.
#pragma once

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"

namespace kgate::metrics {

// Measures every C++/CUDA module of `facts` (a raw file's module 0, or the embedded sources) as a
// whole, and each function definition in it, matched to the function facts of either C++ engine by
// the host position of its name (embedded sources map back through the module's source map).
void measure_cpp(const SourceFile& host, FactSet& facts);

}  // namespace kgate::metrics
