// Escaping text for HTML element content and attribute values (every string the report shows).
#pragma once

#include <string>
#include <string_view>

namespace kgate::audit {

// & < > " ' become entities; safe in element content and in quoted attribute values.
std::string html_escape(std::string_view text);

}  // namespace kgate::audit
