// Framing of the control channel: a 4-byte little-endian length and the JSON text.
#include "runtime/protocol.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

namespace kgate::runtime {
namespace {

using Clock = std::chrono::steady_clock;

// Reads exactly n bytes before the deadline; 1 done, 0 closed, -1 timeout, -2 error.
int read_exact(int fd, char* out, std::size_t n, Clock::time_point deadline, bool forever) {
  std::size_t got = 0;
  while (got < n) {
    int wait_ms = -1;
    if (!forever) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return -1;
      wait_ms = static_cast<int>(left);
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return -2;
    }
    if (ready == 0) return -1;
    const ssize_t r = ::read(fd, out + got, n - got);
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -2;
    }
    if (r == 0) return 0;
    got += static_cast<std::size_t>(r);
  }
  return 1;
}

}  // namespace

Status write_message(int fd, const nlohmann::json& message) {
  const std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > kMaxMessageBytes) return Error{"message too large"};
  const std::uint32_t n = static_cast<std::uint32_t>(text.size());
  std::string frame(4 + text.size(), '\0');
  for (int i = 0; i < 4; ++i) frame[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  std::memcpy(frame.data() + 4, text.data(), text.size());
  std::size_t sent = 0;
  while (sent < frame.size()) {
    const ssize_t w = ::write(fd, frame.data() + sent, frame.size() - sent);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Error{std::string("control pipe write failed: ") + std::strerror(errno)};
    }
    sent += static_cast<std::size_t>(w);
  }
  return Status::ok();
}

MessageRead read_message(int fd, int timeout_ms) {
  const bool forever = timeout_ms < 0;
  const auto deadline = Clock::now() + std::chrono::milliseconds(forever ? 0 : timeout_ms);
  MessageRead result;
  unsigned char header[4];
  int rc = read_exact(fd, reinterpret_cast<char*>(header), 4, deadline, forever);
  if (rc != 1) {
    result.kind = rc == -1 ? MessageRead::Kind::timeout : MessageRead::Kind::closed;
    return result;
  }
  const std::uint32_t n =
      header[0] | (header[1] << 8) | (header[2] << 16) | (static_cast<std::uint32_t>(header[3]) << 24);
  if (n > kMaxMessageBytes) {
    result.kind = MessageRead::Kind::malformed;
    result.error = "message length " + std::to_string(n) + " over the limit";
    return result;
  }
  std::string text(n, '\0');
  rc = read_exact(fd, text.data(), n, deadline, forever);
  if (rc != 1) {
    result.kind = rc == -1 ? MessageRead::Kind::timeout : MessageRead::Kind::closed;
    return result;
  }
  result.body = nlohmann::json::parse(text, nullptr, false);
  if (result.body.is_discarded() || !result.body.is_object()) {
    result.kind = MessageRead::Kind::malformed;
    result.error = "message is not a JSON object";
    return result;
  }
  result.kind = MessageRead::Kind::message;
  return result;
}

}  // namespace kgate::runtime
