// The cache directory (cache_dir.h).
#include "analyzers/core/cache_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <system_error>

namespace kgate {

std::filesystem::path default_cache_dir() {
  if (const char* env = std::getenv("KGATE_CACHE_DIR"); env && *env) return env;
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return tmp / ("kgate-" + std::to_string(getuid()));
}

bool private_directory(const std::filesystem::path& dir) {
  struct stat info{};
  if (::lstat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return false;
  return info.st_uid == ::getuid() && (info.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

bool make_private_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::create_directories(dir, ec)) ::chmod(dir.c_str(), 0700);
  return private_directory(dir);
}

bool write_atomically(const std::filesystem::path& target, std::string_view bytes) {
  std::error_code ec;
  const std::filesystem::path temporary = target.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      out.close();
      std::filesystem::remove(temporary, ec);
      return false;
    }
  }
  std::filesystem::rename(temporary, target, ec);
  if (ec) std::filesystem::remove(temporary, ec);
  return !ec;
}

}  // namespace kgate
