// A small scanner of Python's lexical structure (strings, comments, brackets, continuations), enough
// to group physical lines the way radon's raw metrics do and to find the ':' and ';' tokens its
// logical-line rule reads. It never decides meaning: the tree-sitter tree does that.
#include "analyzers/metrics/python_lines.h"

#include <array>
#include <cctype>
#include <string>

namespace kgate::metrics {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r'; }
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

std::string_view strip(std::string_view line) {
  while (!line.empty() && is_space(line.front())) line.remove_prefix(1);
  while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
  return line;
}

// Python's multi-character operators, longest first.
constexpr std::array<std::string_view, 22> kOperators = {"**=", "//=", ">>=", "<<=", "...", "**", "//", "<<",
                                                         ">>",  "<=",  ">=",  "==",  "!=",  "->", "+=", "-=",
                                                         "*=",  "/=",  "%=",  "&=",  "|=",  "^="};

// The tokens of one `;`-separated part that radon's logical-line rule reads.
struct Part {
  int64_t tokens = 0;       // significant tokens (not comments or newlines)
  int64_t last_colon = -1;  // index of the last ':' operator
  void token(bool colon) {
    if (colon) last_colon = tokens;
    ++tokens;
  }
  // radon: 2 - (the last ':' is the next-to-last token, the end marker counting in the last part).
  int64_t logical(bool last) const {
    const int64_t size = tokens + (last ? 1 : 0);
    if (last_colon >= 0) return last_colon == size - 2 ? 1 : 2;
    return tokens > 0 ? 1 : 0;
  }
};

struct Scanner {
  // State carried from one physical line of a group to the next.
  int depth = 0;
  char quote = 0;  // open string's quote character
  bool triple = false;
  bool continuation = false;
  // Per group.
  std::vector<Part> parts{1};
  int64_t comments = 0;
  int64_t strings = 0;
  bool other_tokens = false;  // any significant token other than one string

  bool open() const { return quote != 0 || depth > 0 || continuation; }

  void string_token() {
    ++strings;
    parts.back().token(false);
  }
  void other_token(bool colon) {
    other_tokens = true;
    parts.back().token(colon);
  }

  // Scans to the end of the open string; returns the offset after it, or npos if the line ends first.
  size_t close_string(std::string_view s, size_t i) {
    while (i < s.size()) {
      if (s[i] == '\\') {
        i += 2;
        continue;
      }
      if (s[i] == quote && (!triple || s.substr(i, 3) == std::string(3, quote))) {
        i += triple ? 3 : 1;
        quote = 0;
        return i;
      }
      ++i;
    }
    return std::string_view::npos;
  }

  void line(std::string_view s) {
    continuation = false;
    size_t i = 0;
    if (quote) {
      i = close_string(s, 0);
      if (i == std::string_view::npos) return;
      string_token();
    }
    while (i < s.size()) {
      const char c = s[i];
      if (is_space(c)) {
        ++i;
      } else if (c == '#') {
        ++comments;
        return;
      } else if (c == '\\' && i + 1 == s.size()) {
        continuation = true;
        return;
      } else if (c == '"' || c == '\'' || (is_name_char(c) && string_prefix(s, i) != std::string_view::npos)) {
        size_t q = c == '"' || c == '\'' ? i : string_prefix(s, i);
        quote = s[q];
        triple = s.substr(q, 3) == std::string(3, quote);
        i = close_string(s, q + (triple ? 3 : 1));
        if (i == std::string_view::npos) return;  // the string goes on: the group continues
        string_token();
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
        ++i;
        while (i < s.size() && (is_name_char(s[i]) || s[i] == '.' ||
                                ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
          ++i;
        other_token(false);
      } else if (is_name_char(c)) {
        while (i < s.size() && is_name_char(s[i])) ++i;
        other_token(false);
      } else if (c == ';') {
        ++i;
        parts.emplace_back();
      } else if (c == ':') {
        const bool walrus = i + 1 < s.size() && s[i + 1] == '=';
        i += walrus ? 2 : 1;
        other_token(!walrus);
      } else {
        if (c == '(' || c == '[' || c == '{') ++depth;
        if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
        size_t width = 1;
        for (std::string_view op : kOperators)
          if (s.substr(i, op.size()) == op) {
            width = op.size();
            break;
          }
        i += width;
        other_token(false);
      }
    }
  }

  // Offset of the quote when s[i..] is a string prefix (r, b, u, f and their pairs) then a quote.
  static size_t string_prefix(std::string_view s, size_t i) {
    if (i > 0 && is_name_char(s[i - 1])) return std::string_view::npos;
    size_t j = i;
    while (j < s.size() && j - i < 2 && std::string_view("rRbBuUfF").find(s[j]) != std::string_view::npos) ++j;
    if (j == i || j >= s.size() || (s[j] != '"' && s[j] != '\'')) return std::string_view::npos;
    return j;
  }
};

}  // namespace

std::vector<LineGroup> python_line_groups(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<LineGroup> groups;
  for (size_t i = 0; i < lines.size();) {
    Scanner scan;
    LineGroup g;
    g.first_line = static_cast<uint32_t>(i + 1);
    int64_t non_blank = 0, blank = 0;
    size_t j = i;
    do {
      const std::string_view s = strip(lines[j]);
      (s.empty() ? blank : non_blank) += 1;
      scan.line(s);
      ++j;
    } while (scan.open() && j < lines.size());
    g.last_line = static_cast<uint32_t>(j);
    g.comments = scan.comments;
    const bool only_comment =
        scan.comments > 0 && scan.strings == 0 && !scan.other_tokens && non_blank == 1 && g.first_line == g.last_line;
    const bool only_string = scan.strings == 1 && !scan.other_tokens && scan.comments == 0 && scan.parts.size() == 1;
    if (only_comment) {
      // a comment line: neither code nor multi
    } else if (only_string) {
      if (g.last_line > g.first_line) g.multi = non_blank;  // a one-line string statement counts as neither
    } else {
      g.sloc = non_blank;
    }
    for (size_t p = 0; p < scan.parts.size(); ++p) g.lloc += scan.parts[p].logical(p + 1 == scan.parts.size());
    groups.push_back(g);
    i = j;
  }
  return groups;
}

}  // namespace kgate::metrics
