// The judge <-> worker control channel: length-prefixed JSON messages on pipes (4-byte little-endian
// length, then UTF-8 JSON). Tensor data never travels here; it goes through the shared arena.
// runtime/python/kgate_worker.py speaks the same framing for the compile requests it sends.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate::runtime {

constexpr std::size_t kMaxMessageBytes = 16u << 20;

Status write_message(int fd, const nlohmann::json& message);

struct MessageRead {
  enum class Kind { message, timeout, closed, malformed };
  Kind kind = Kind::closed;
  nlohmann::json body;
  std::string error;  // for malformed
};

// Waits at most timeout_ms (negative: forever) for one whole message.
MessageRead read_message(int fd, int timeout_ms);

}  // namespace kgate::runtime
