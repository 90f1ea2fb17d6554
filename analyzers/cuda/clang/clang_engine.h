// The Clang LibTooling engine of CUDA C++ facts (optional component `kgate_clang`).
#pragma once

#include "analyzers/cuda/cuda_facts.h"

namespace kgate::cuda {

// The engine function itself, for a caller that registers it its own way (the kgate CLI loads this
// engine as a plugin on first use: tools/kgate/clang_loader.cpp, clang_plugin.cpp).
ClangEngineFn clang_engine_function();

// Registers the Clang engine with kgate_static's dispatcher (cuda::extract_facts). Call once at
// start-up, before any analysis; repeated calls are harmless.
void clang_init();

}  // namespace kgate::cuda
