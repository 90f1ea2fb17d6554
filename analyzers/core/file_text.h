// Reading a whole file into memory in one read of its size (std::istreambuf_iterator copies a
// character at a time, which showed in start-up profiles for the rule files and the rule cache).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace kgate {

enum class ReadFailure { Open, Read };

// The file's bytes, or nullopt when it cannot be opened or a read fails (`failure`, when given, says
// which). A file that grows while it is read is read to its end.
std::optional<std::string> read_file_text(const std::filesystem::path& path, ReadFailure* failure = nullptr);

}  // namespace kgate
