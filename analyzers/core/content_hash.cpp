// SHA-256 through OpenSSL's EVP interface.
#include "analyzers/core/content_hash.h"

#include <array>
#include <fstream>
#include <memory>

#include <openssl/evp.h>

namespace kgate {

namespace {

struct DigestDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using Digest = std::unique_ptr<EVP_MD_CTX, DigestDeleter>;

Digest start_sha256() {
  Digest ctx(EVP_MD_CTX_new());
  if (ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) ctx.reset();
  return ctx;
}

std::string finish_hex(EVP_MD_CTX* ctx) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx, digest.data(), &size) != 1) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xF];
  }
  return hex;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  Digest ctx = start_sha256();
  if (!ctx || EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1) return {};
  return finish_hex(ctx.get());
}

Result<std::string> sha256_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read " + path.string()};
  Digest ctx = start_sha256();
  if (!ctx) return Error{"SHA-256 is not available from OpenSSL"};
  std::array<char, 1 << 16> chunk{};
  while (in) {
    in.read(chunk.data(), chunk.size());
    if (in.gcount() > 0 && EVP_DigestUpdate(ctx.get(), chunk.data(), static_cast<size_t>(in.gcount())) != 1)
      return Error{"SHA-256 failed on " + path.string()};
  }
  if (in.bad()) return Error{"read error on " + path.string()};
  std::string hex = finish_hex(ctx.get());
  if (hex.empty()) return Error{"SHA-256 failed on " + path.string()};
  return hex;
}

}  // namespace kgate
