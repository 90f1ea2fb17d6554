// SHA-256 through OpenSSL: the audit's resume key (a file's contents) and the rule cache's key.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "analyzers/core/status.h"

namespace kgate {

// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

// Lower-case hex SHA-256 of a file's bytes, read in chunks (a file of any size).
Result<std::string> sha256_file(const std::filesystem::path& path);

}  // namespace kgate
