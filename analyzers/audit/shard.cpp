// Shard parsing and membership.
#include "analyzers/audit/shard.h"

#include <charconv>

namespace kgate::audit {

namespace {

bool parse_number(std::string_view text, uint32_t& out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

uint64_t fnv1a64(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

Result<Shard> parse_shard(std::string_view text) {
  const size_t slash = text.find('/');
  Shard shard;
  if (slash == std::string_view::npos || !parse_number(text.substr(0, slash), shard.index) ||
      !parse_number(text.substr(slash + 1), shard.count))
    return Error{"--shard: expected K/N (for example 2/4), got '" + std::string(text) + "'"};
  if (shard.count == 0 || shard.index == 0 || shard.index > shard.count)
    return Error{"--shard: K/N needs 1 <= K <= N, got '" + std::string(text) + "'"};
  return shard;
}

bool in_shard(const std::string& path, const Shard& shard) { return fnv1a64(path) % shard.count == shard.index - 1; }

}  // namespace kgate::audit
