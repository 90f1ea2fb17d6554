#include "tools/kgate/clang_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "analyzers/cuda/cuda_facts.h"

namespace kgate::cli {
namespace {

namespace fs = std::filesystem;

struct Loaded {
  cuda::ClangEngineFn engine = nullptr;
  std::string error;  // why it is not loaded
};

fs::path plugin_path() {
  if (const char* env = std::getenv("KGATE_CLANG_PLUGIN"); env && *env) return env;
  std::error_code ec;
  const fs::path next_to_exe = fs::read_symlink("/proc/self/exe", ec).parent_path() / "kgate_clang_plugin.so";
  if (!ec && fs::exists(next_to_exe, ec)) return next_to_exe;
  return KGATE_CLANG_PLUGIN_PATH;
}

Loaded load() {
  Loaded loaded;
  const fs::path path = plugin_path();
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

bool lazy_engine(const SourceFile& host, FactSet& facts, int module, const cuda::CudaOptions& options, std::string& why) {
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
