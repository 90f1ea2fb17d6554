// kgate_clang_plugin: the Clang engine as a loadable module. The kgate CLI does not link libclang-cpp
// and libLLVM (loading and relocating them cost ~20 ms at every start, more than a pass over a small
// repository); tools/kgate/clang_loader.cpp dlopens this module the first time a C++/CUDA source
// needs Clang. The module does not contain kgate_static: its references to the fact model, the budget
// and the dispatcher bind to the kgate executable's own copies (kgate is linked with exported
// symbols), so there is one of each.
#include "analyzers/cuda/clang/clang_engine.h"

extern "C" __attribute__((visibility("default"))) kgate::cuda::ClangEngineFn kgate_clang_engine_v1() {
  return kgate::cuda::clang_engine_function();
}
