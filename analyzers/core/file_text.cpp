#include "analyzers/core/file_text.h"

#include <fstream>
#include <iterator>
#include <system_error>

namespace kgate {

std::optional<std::string> read_file_text(const std::filesystem::path& path, ReadFailure* failure) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (failure) *failure = ReadFailure::Open;
    return std::nullopt;
  }
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  std::string text(ec ? 0 : static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (in) text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    if (failure) *failure = ReadFailure::Read;
    return std::nullopt;
  }
  return text;
}

size_t find_invalid_utf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = bytes[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Lead byte: sequence length and the allowed range of the second byte (RFC 3629 table), which
    // rules out overlong forms, UTF-16 surrogates and code points above U+10FFFF.
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c == 0xE0) {
      length = 3, low = 0xA0;
    } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
      length = 3;
    } else if (c == 0xED) {
      length = 3, high = 0x9F;
    } else if (c == 0xF0) {
      length = 4, low = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) {
      length = 4;
    } else if (c == 0xF4) {
      length = 4, high = 0x8F;
    } else {
      return i;
    }
    if (i + 1 >= n || bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (size_t k = 2; k < length; ++k)
      if (i + k >= n || bytes[i + k] < 0x80 || bytes[i + k] > 0xBF) return i;
    i += length;
  }
  return std::string_view::npos;
}

}  // namespace kgate
