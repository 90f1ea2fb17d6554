// The rule cache: CBOR files under the cache directory, one per rules directory, written atomically.
#include "analyzers/rules/rule_cache.h"

#include <functional>
#include <system_error>

#include "analyzers/core/cache_dir.h"
#include "analyzers/core/content_hash.h"
#include "analyzers/core/file_text.h"

namespace kgate {

namespace {

constexpr int kFormat = 2;  // bump when the stored documents or the key change meaning

// The binary that wrote an entry: a rebuilt kgate may convert YAML or check rules differently.
std::string binary_identity() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const auto size = std::filesystem::file_size(exe, ec);
  if (ec) return {};
  const auto time = std::filesystem::last_write_time(exe, ec);
  if (ec) return {};
  return exe.string() + ":" + std::to_string(size) + ":" + std::to_string(time.time_since_epoch().count());
}

std::filesystem::path entry_path(const std::filesystem::path& cache_dir, const std::filesystem::path& rules_dir) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(rules_dir, ec);
  if (ec) absolute = rules_dir;
  // The name only spreads directories over files; the key inside decides whether an entry is used.
  const size_t name = std::hash<std::string>{}(absolute.lexically_normal().string());
  return cache_dir / ("rules-" + std::to_string(name) + ".cbor");
}

}  // namespace

std::string RuleCacheKey::digest() const {
  std::string material;
  const auto part = [&material](std::string_view bytes) {
    material += std::to_string(bytes.size());
    material += ':';
    material += bytes;
  };
  part(std::to_string(kFormat));
  part(binary_identity());
  part(schema_text);
  for (const auto& [path, text] : files) {
    part(path);
    part(text);
  }
  return sha256_hex(material);
}

std::optional<std::vector<nlohmann::json>> load_rule_cache(const std::filesystem::path& cache_dir,
                                                           const std::filesystem::path& rules_dir,
                                                           const RuleCacheKey& key) {
  if (!private_directory(cache_dir)) return std::nullopt;
  const std::optional<std::string> bytes = read_file_text(entry_path(cache_dir, rules_dir));
  if (!bytes) return std::nullopt;
  nlohmann::json entry = nlohmann::json::from_cbor(*bytes, true, /*allow_exceptions=*/false);
  if (entry.is_discarded() || !entry.is_object() || !entry.contains("key") || !entry.contains("documents"))
    return std::nullopt;
  const std::string digest = key.digest();
  if (digest.empty() || entry["key"] != digest) return std::nullopt;
  const nlohmann::json& documents = entry["documents"];
  if (!documents.is_array() || documents.size() != key.files.size()) return std::nullopt;
  return documents.get<std::vector<nlohmann::json>>();
}

void store_rule_cache(const std::filesystem::path& cache_dir, const std::filesystem::path& rules_dir,
                      const RuleCacheKey& key, const std::vector<nlohmann::json>& documents) {
  if (!make_private_directory(cache_dir)) return;
  const std::string digest = key.digest();
  if (digest.empty()) return;
  const nlohmann::json entry = {{"key", digest}, {"documents", documents}};
  const std::vector<uint8_t> bytes = nlohmann::json::to_cbor(entry);
  write_atomically(entry_path(cache_dir, rules_dir),
                   std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace kgate
