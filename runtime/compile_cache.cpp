// Compile cache: key, lookup, and the out-of-sandbox build through runtime/python/kgate_compile.py.
#include "runtime/compile_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>

#include "runtime/embed.h"

namespace py = pybind11;

namespace kgate::runtime {

std::filesystem::path default_compile_cache_dir() {
  if (const char* dir = std::getenv("KGATE_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "kgate" / "compile";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "kgate" / "compile";
  return std::filesystem::temp_directory_path() / "kgate-compile";
}

Result<std::filesystem::path> CompileCache::build(const nlohmann::json& request, CompileRecord* record) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  const std::string name = request.value("name", "");
  record->name = name;
  // The name becomes a file and a module name: an identifier, nothing else.
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]{0,99}");
  if (!std::regex_match(name, identifier)) {
    record->error = "extension name '" + name + "' is not an identifier";
    return Error{record->error};
  }
  try {
    py::module_ helper = embed::helper("kgate_compile");
    if (toolchain_.empty()) toolchain_ = helper.attr("toolchain_fingerprint")().cast<std::string>();
    record->key = helper.attr("cache_key")(request.dump(), toolchain_).cast<std::string>();
    const std::filesystem::path dir = dir_ / record->key;
    const std::filesystem::path library = dir / (name + ".so");
    std::error_code ec;
    if (std::filesystem::exists(dir / "complete", ec) && std::filesystem::exists(library, ec)) {
      record->hit = true;
      record->milliseconds = elapsed_ms();
      return library;
    }
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      record->error = "cannot create " + dir.string() + ": " + ec.message();
      return Error{record->error};
    }
    // One build of a key at a time across processes (two judges may meet the same source). The flock
    // ends with its holder, so a killed build leaves nothing held; torch's own baton (`lock`, a file
    // that a killed build leaves behind and every later build of the key then waits on for ever) is
    // removed under it. Another process may have finished the build meanwhile.
    const int lock_fd = ::open((dir / ".kgate-build-lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd >= 0)
      while (::flock(lock_fd, LOCK_EX) != 0 && errno == EINTR) {
      }
    struct Unlock {
      int fd;
      ~Unlock() {
        if (fd >= 0) ::close(fd);
      }
    } unlock{lock_fd};
    if (std::filesystem::exists(dir / "complete", ec) && std::filesystem::exists(library, ec)) {
      record->hit = true;
      record->milliseconds = elapsed_ms();
      return library;
    }
    std::filesystem::remove(dir / "lock", ec);
    py::tuple outcome = helper.attr("build_in_child")(KGATE_PYTHON_EXECUTABLE, request.dump(), dir.string());
    const bool ok = outcome[0].cast<bool>();
    record->milliseconds = elapsed_ms();
    if (!ok || !std::filesystem::exists(library, ec)) {
      record->error = "compilation failed: " + outcome[1].cast<std::string>();
      return Error{record->error};
    }
    std::ofstream(dir / "complete") << record->key << "\n";
    return library;
  } catch (const py::error_already_set& e) {
    record->error = embed::error_text(e);
    record->milliseconds = elapsed_ms();
    return Error{record->error};
  }
}

}  // namespace kgate::runtime
