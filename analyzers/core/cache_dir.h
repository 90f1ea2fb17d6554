// The user's cache directory and the safe way to use it: what the rule cache (rules/rule_cache.h) and
// the PTX witness's cache (ptx/witness.cpp) keep between runs. Entries are trusted without checking,
// so only a directory that this user owns and that nobody else can write to is read or written (a
// shared temp directory could otherwise hold a planted entry).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kgate {

// $KGATE_CACHE_DIR, else <temp>/kgate-<uid> (where the Clang engine keeps its precompiled header).
std::filesystem::path default_cache_dir();

// Whether `dir` is a directory (not a link) this user owns, with no write permission for group or others.
bool private_directory(const std::filesystem::path& dir);

// Creates `dir` (mode 0700) where it is missing; whether it is then a private directory.
bool make_private_directory(const std::filesystem::path& dir);

// Writes `bytes` to `target` through a temporary file and a rename: readers see the old file or the
// new one, never half. Best effort: whether it was written.
bool write_atomically(const std::filesystem::path& target, std::string_view bytes);

}  // namespace kgate
