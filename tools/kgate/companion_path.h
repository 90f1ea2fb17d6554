// Where a companion of this executable lives (kgate-runtime, kgate-worker, the Clang plugin).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace kgate::cli {

// $ENV_VAR when it is set (env_var may be null), else NAME next to this executable (an install tree,
// or the build's tools/ dir), else the path this build produced.
inline std::filesystem::path companion_path(const char* env_var, const char* name, const char* built) {
  if (env_var)
    if (const char* env = std::getenv(env_var); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && std::filesystem::exists(exe.parent_path() / name, ec)) return exe.parent_path() / name;
  return built;
}

}  // namespace kgate::cli
