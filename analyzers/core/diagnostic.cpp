// Severity names and finding fingerprints.
#include "analyzers/core/diagnostic.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "analyzers/core/fingerprint.h"

namespace kgate {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::Note:
      return "note";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
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
  const auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
  };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace

std::string invocation_relative_path(std::string_view path, const std::filesystem::path& base_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::path(path).lexically_normal();
  if (p.is_absolute()) {
    const fs::path base = base_dir.empty() ? fs::current_path(ec) : fs::absolute(base_dir, ec);
    if (!ec && !base.empty()) {
      const fs::path relative = p.lexically_relative(base.lexically_normal());
      if (!relative.empty() && *relative.begin() != "..") p = relative;
    }
  }
  std::string out = p.generic_string();
  // lexically_normal keeps the trailing separator of a directory name; a file path has none.
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string fingerprint(std::string_view rule, std::string_view path, std::string_view line_text) {
  Fnv1a64 hash;
  hash.add(rule);
  hash.separator();
  hash.add(invocation_relative_path(path));
  hash.separator();
  hash.add(trim(line_text));
  std::array<char, 17> hex{};
  std::snprintf(hex.data(), hex.size(), "%016llx", static_cast<unsigned long long>(hash.value()));
  return std::string(hex.data(), 16);
}

}  // namespace kgate
