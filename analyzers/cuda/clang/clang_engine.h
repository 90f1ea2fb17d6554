// The Clang LibTooling engine of CUDA C++ facts (optional component `kgate_clang`).
#pragma once

namespace kgate::cuda {

// Registers the Clang engine with kgate_static's dispatcher (cuda::extract_facts). Call once at
// start-up, before any analysis; repeated calls are harmless.
void clang_init();

}  // namespace kgate::cuda
