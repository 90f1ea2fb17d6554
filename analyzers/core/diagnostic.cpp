// Severity names and finding fingerprints.
#include "analyzers/core/diagnostic.h"

#include <array>
#include <cstdio>

#include "analyzers/core/fingerprint.h"

namespace kgate {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "error") return Severity::Error;
  if (text == "warning") return Severity::Warning;
  if (text == "note") return Severity::Note;
  return std::nullopt;
}

namespace {

// FNV-1a: tiny, fixed and platform-independent, which is all a fingerprint needs (it is not a
// security boundary; a collision only merges two baseline entries).
class Fnv1a64 {
 public:
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      hash_ ^= c;
      hash_ *= 0x100000001b3ULL;
    }
  }
  // A separator that cannot occur in the fields keeps ("ab","c") and ("a","bc") apart.
  void separator() { add(std::string_view("\0", 1)); }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace

std::string fingerprint(std::string_view rule, std::string_view path, std::string_view line_text) {
  Fnv1a64 hash;
  hash.add(rule);
  hash.separator();
  hash.add(path);
  hash.separator();
  hash.add(trim(line_text));
  std::array<char, 17> hex{};
  std::snprintf(hex.data(), hex.size(), "%016llx", static_cast<unsigned long long>(hash.value()));
  return std::string(hex.data(), 16);
}

}  // namespace kgate
