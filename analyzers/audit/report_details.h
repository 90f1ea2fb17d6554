// The report's per-file details (findings with their excerpts, runtime reasons), packed for the page:
// one JSON array indexed like the page's file list, deflated with zlib and base64-encoded. The page's
// script unpacks it when a reader opens a file, so a report of thousands of files stays small.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kgate::audit {

// [{"findings": [{"rule", "severity", "line", "end_line", "col", "message", "first_line", "lines"}],
//   "runtime": {"verdict", "reasons": [{"id", "message"}]}}, ...], one entry per record, in order.
nlohmann::json details_of(const std::vector<const nlohmann::json*>& records);

// zlib (RFC 1950, what the browser's DecompressionStream("deflate") reads), then base64.
std::string deflate_base64(const std::string& data);

}  // namespace kgate::audit
