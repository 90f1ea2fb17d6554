// `--shard K/N`: a deterministic partition of the files of an audit by a hash of each path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analyzers/core/status.h"

namespace kgate::audit {

struct Shard {
  uint32_t index = 1;  // K: 1-based
  uint32_t count = 1;  // N
};

// Parses "K/N" with 1 <= K <= N; the error says what is wrong.
Result<Shard> parse_shard(std::string_view text);

// Whether `path` (as given, after directory walking) belongs to the shard: FNV-1a 64 of the path
// modulo N equals K-1. The same path lands in the same shard on every machine and run.
bool in_shard(const std::string& path, const Shard& shard);

}  // namespace kgate::audit
