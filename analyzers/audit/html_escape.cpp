// HTML escaping.
#include "analyzers/audit/html_escape.h"

namespace kgate::audit {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\0':
        out += "\xEF\xBF\xBD";
        break;  // U+FFFD: a NUL byte is not allowed in HTML text
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace kgate::audit
