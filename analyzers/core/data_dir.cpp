// Default data paths: installed layout first, then the source tree (see data_dir.h).
#include "analyzers/core/data_dir.h"

#include <cstdlib>
#include <mutex>
#include <system_error>
#include <vector>

namespace kgate {

namespace fs = std::filesystem;

namespace {

std::mutex prefixes_mutex;
std::vector<fs::path>& extra_prefixes() {
  static std::vector<fs::path> prefixes;
  return prefixes;
}

// KGATE_SOURCE_DIR is defined for this file only (analyzers/CMakeLists.txt), so that no other object
// of the library depends on where the checkout is.
const fs::path kSourceDir = KGATE_SOURCE_DIR;
const fs::path kBinaryDir = KGATE_BINARY_DIR;

}  // namespace

void add_install_prefix(const fs::path& prefix) {
  std::lock_guard<std::mutex> lock(prefixes_mutex);
  extra_prefixes().push_back(prefix);
}

std::optional<fs::path> installed_data_dir() {
  std::vector<fs::path> candidates;
  std::error_code ec;
  if (const fs::path exe = fs::read_symlink("/proc/self/exe", ec); !ec)
    candidates.push_back(exe.parent_path().parent_path());
  {
    std::lock_guard<std::mutex> lock(prefixes_mutex);
    candidates.insert(candidates.end(), extra_prefixes().begin(), extra_prefixes().end());
  }
  for (const fs::path& prefix : candidates) {
    fs::path data = prefix / "share" / "kgate";
    if (fs::is_directory(data / "rules", ec)) return data;
  }
  return std::nullopt;
}

fs::path default_rules_dir() {
  if (const char* env = std::getenv("KGATE_RULES_DIR"); env && *env) return env;
  if (auto installed = installed_data_dir()) return *installed / "rules";
  return kSourceDir / "rules";
}

fs::path companion_program(const char* name) {
  std::vector<fs::path> candidates;
  std::error_code ec;
  if (const fs::path exe = fs::read_symlink("/proc/self/exe", ec); !ec) candidates.push_back(exe.parent_path() / name);
  {
    std::lock_guard<std::mutex> lock(prefixes_mutex);
    for (const fs::path& prefix : extra_prefixes()) candidates.push_back(prefix / "bin" / name);
  }
  for (const fs::path& c : candidates)
    if (fs::is_regular_file(c, ec)) return c;
  return kBinaryDir / "tools" / name;
}

fs::path default_shim_dir() {
  if (auto installed = installed_data_dir()) return *installed / "shims";
  return kSourceDir / "analyzers" / "cuda" / "shims";
}

}  // namespace kgate
