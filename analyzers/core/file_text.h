// Reading a whole file into memory in one read of its size (std::istreambuf_iterator copies a
// character at a time, which showed in start-up profiles for the rule files and the rule cache), and
// checking text for valid UTF-8.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kgate {

enum class ReadFailure { Open, Read };

// The file's bytes, or nullopt when it cannot be opened or a read fails (`failure`, when given, says
// which). A file that grows while it is read is read to its end.
std::optional<std::string> read_file_text(const std::filesystem::path& path, ReadFailure* failure = nullptr);

// The byte offset of the first invalid UTF-8 sequence in `text` (RFC 3629: no overlong forms,
// surrogates or code points above U+10FFFF), or npos when it is all valid.
size_t find_invalid_utf8(std::string_view text);

}  // namespace kgate
