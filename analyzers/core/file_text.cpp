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

}  // namespace kgate
