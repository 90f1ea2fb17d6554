#include "tools/kgate/clang_loader.h"

#include <dlfcn.h>

#include <filesystem>
#include <string>

#include "analyzers/cuda/cuda_facts.h"
#include "tools/kgate/companion_path.h"

namespace kgate::cli {
namespace {

namespace fs = std::filesystem;

struct Loaded {
  cuda::ClangEngineFn engine = nullptr;
  std::string error;  // why it is not loaded
};

Loaded load() {
  Loaded loaded;
  const fs::path path = companion_path("KGATE_CLANG_PLUGIN", "kgate_clang_plugin.so", KGATE_CLANG_PLUGIN_PATH);
  // Never unloaded: the engine keeps its compiler state (shim PCH, file manager) for the process.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* error = ::dlerror();
    loaded.error = "the Clang engine could not be loaded (" + path.string() + "): " + (error ? error : "unknown error");
    return loaded;
  }
  using Entry = cuda::ClangEngineFn (*)();
  auto entry = reinterpret_cast<Entry>(::dlsym(handle, "kgate_clang_engine_v1"));
  if (!entry) {
    loaded.error = "the Clang engine plugin " + path.string() + " has no kgate_clang_engine_v1";
    return loaded;
  }
  loaded.engine = entry();
  if (!loaded.engine) loaded.error = "the Clang engine plugin " + path.string() + " returned no engine";
  return loaded;
}

bool lazy_engine(const SourceFile& host, FactSet& facts, int module, const cuda::CudaOptions& options,
                 std::string& why) {
  static const Loaded loaded = load();  // once, thread-safe; later calls go straight to the engine
  if (!loaded.engine) {
    why = loaded.error;
    return false;
  }
  return loaded.engine(host, facts, module, options, why);
}

}  // namespace

void register_lazy_clang_engine() { cuda::register_clang_engine(&lazy_engine); }

}  // namespace kgate::cli
