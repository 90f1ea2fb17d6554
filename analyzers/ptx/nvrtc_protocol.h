// The framing between the PTX witness and its NVRTC helper process (kgate-nvrtc, nvrtc_child.h): one
// message is a list of byte strings, written as a 32-bit count and then, per string, a 64-bit length and
// its bytes (host byte order: both ends are the same build on the same machine).
//   request  [prelude, device text, name expression...]
//   answer   ["ok" | "failed", PTX or NVRTC's reason, CPU milliseconds the compilation took]
// Writes use send(MSG_NOSIGNAL) on a socket, so an end that died is an error and never a SIGPIPE.
#pragma once

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kgate::ptx::protocol {

// The most strings and bytes one message may hold: far above a submission (the witness compiles up to
// 512 kB of source); a length beyond them is a broken stream, not a message.
inline constexpr uint32_t kMaxStrings = 4096;
inline constexpr uint64_t kMaxBytes = uint64_t{64} << 20;

inline bool write_all(int fd, const void* data, size_t size) {
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::send(fd, at, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

inline bool read_all(int fd, void* data, size_t size) {
  char* at = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

inline bool write_message(int fd, const std::vector<std::string>& parts) {
  const auto count = static_cast<uint32_t>(parts.size());
  if (!write_all(fd, &count, sizeof count)) return false;
  for (const std::string& p : parts) {
    const uint64_t size = p.size();
    if (!write_all(fd, &size, sizeof size) || !write_all(fd, p.data(), p.size())) return false;
  }
  return true;
}

// False at the end of the stream or on a message that breaks the limits above.
inline bool read_message(int fd, std::vector<std::string>& parts) {
  uint32_t count = 0;
  if (!read_all(fd, &count, sizeof count) || count > kMaxStrings) return false;
  parts.assign(count, {});
  uint64_t total = 0;
  for (std::string& p : parts) {
    uint64_t size = 0;
    if (!read_all(fd, &size, sizeof size) || size > kMaxBytes - total) return false;
    total += size;
    p.resize(size);
    if (size && !read_all(fd, p.data(), size)) return false;
  }
  return true;
}

}  // namespace kgate::ptx::protocol
