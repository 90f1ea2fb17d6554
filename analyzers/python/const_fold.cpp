// Constant folding over tree-sitter Python expressions, keeping a byte-level map to the host file.
#include "analyzers/python/const_fold.h"

#include <cctype>

#include "analyzers/treesitter/ts_node.h"

namespace kgate::python {
namespace {

constexpr int kMaxDepth = 24;

void append_utf8(FoldedString& out, uint32_t cp, uint32_t host) {
  auto put = [&](char c) {
    out.text.push_back(c);
    out.map.append(host);
  };
  if (cp < 0x80) {
    put(static_cast<char>(cp));
  } else if (cp < 0x800) {
    put(static_cast<char>(0xC0 | (cp >> 6)));
    put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    put(static_cast<char>(0xE0 | (cp >> 12)));
    put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    put(static_cast<char>(0xF0 | (cp >> 18)));
    put(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    put(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Decodes one escape sequence (text starts at the backslash) into `out`.
void decode_escape(std::string_view esc, uint32_t host, FoldedString& out) {
  if (esc.size() < 2) return;
  char c = esc[1];
  auto hex = [&](size_t from, size_t count) -> std::optional<uint32_t> {
    if (esc.size() < from + count) return std::nullopt;
    uint32_t v = 0;
    for (size_t i = from; i < from + count; ++i) {
      char h = esc[i];
      if (!std::isxdigit(static_cast<unsigned char>(h))) return std::nullopt;
      v = v * 16 +
          static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
    }
    return v;
  };
  switch (c) {
    case '\n':
      return;  // line continuation
    case 'n':
      append_utf8(out, '\n', host);
      return;
    case 't':
      append_utf8(out, '\t', host);
      return;
    case 'r':
      append_utf8(out, '\r', host);
      return;
    case 'a':
      append_utf8(out, '\a', host);
      return;
    case 'b':
      append_utf8(out, '\b', host);
      return;
    case 'f':
      append_utf8(out, '\f', host);
      return;
    case 'v':
      append_utf8(out, '\v', host);
      return;
    case '\\':
    case '\'':
    case '"':
      append_utf8(out, static_cast<uint32_t>(c), host);
      return;
    case 'x':
      if (auto v = hex(2, 2)) {
        append_utf8(out, *v, host);
        return;
      }
      break;
    case 'u':
      if (auto v = hex(2, 4)) {
        append_utf8(out, *v, host);
        return;
      }
      break;
    case 'U':
      if (auto v = hex(2, 8)) {
        append_utf8(out, *v, host);
        return;
      }
      break;
    default:
      if (c >= '0' && c <= '7') {
        uint32_t v = 0;
        for (size_t i = 1; i < esc.size() && i < 4 && esc[i] >= '0' && esc[i] <= '7'; ++i)
          v = v * 8 + static_cast<uint32_t>(esc[i] - '0');
        append_utf8(out, v, host);
        return;
      }
  }
  // Unknown escapes (\N{...}, \q) stay as written, as Python keeps them.
  for (size_t i = 0; i < esc.size(); ++i) {
    out.text.push_back(esc[i]);
    out.map.append(host + static_cast<uint32_t>(i));
  }
}

// Folded text is charged to the file's budget (one byte of text and one map entry per byte): a
// string concatenated with itself a dozen times folds to thousands of times its source size.
void append(FoldedString& into, const FoldedString& part) {
  budget_charge(static_cast<int64_t>(part.text.size() * (1 + sizeof(uint32_t))));
  if (budget_exhausted()) return;  // the file is abandoned; do not build what the limit refused
  into.text += part.text;
  into.map.append_map(part.map);
}

// textwrap.dedent: removes the longest common leading whitespace of non-blank lines, keeping the map.
FoldedString dedent(const FoldedString& in) {
  std::vector<std::pair<size_t, size_t>> lines;  // [begin, end) without '\n'
  size_t b = 0;
  for (size_t i = 0; i <= in.text.size(); ++i) {
    if (i == in.text.size() || in.text[i] == '\n') {
      lines.push_back({b, i});
      b = i + 1;
    }
  }
  std::optional<std::string> margin;
  for (auto [lb, le] : lines) {
    size_t ws = lb;
    while (ws < le && (in.text[ws] == ' ' || in.text[ws] == '\t')) ++ws;
    if (ws == le) continue;  // blank
    std::string lead = in.text.substr(lb, ws - lb);
    if (!margin) {
      margin = lead;
    } else {
      size_t k = 0;
      while (k < margin->size() && k < lead.size() && (*margin)[k] == lead[k]) ++k;
      margin->resize(k);
    }
  }
  FoldedString out;
  out.plain = false;
  for (size_t li = 0; li < lines.size(); ++li) {
    auto [lb, le] = lines[li];
    size_t ws = lb;
    while (ws < le && (in.text[ws] == ' ' || in.text[ws] == '\t')) ++ws;
    size_t from = (ws == le) ? le : lb + (margin ? margin->size() : 0);
    for (size_t i = from; i < le; ++i) {
      out.text.push_back(in.text[i]);
      out.map.append(in.map.host_offset(static_cast<uint32_t>(i)));
    }
    if (li + 1 < lines.size()) {
      out.text.push_back('\n');
      out.map.append(in.map.host_offset(static_cast<uint32_t>(le)));
    }
  }
  return out;
}

}  // namespace

std::optional<FoldedString> ConstFolder::decode_literal(TSNode node, int depth) const {
  FoldedString out;
  bool raw = false, formatted = false;
  uint32_t n = ts::count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts::child(node, i);
    std::string_view t = ts::type(child);
    if (t == "string_start") {
      for (char c : ts::text(child, source_)) {
        if (c == 'r' || c == 'R') raw = true;
        if (c == 'f' || c == 'F') formatted = true;
      }
    } else if (t == "string_content") {
      uint32_t pos = ts_node_start_byte(child);
      uint32_t end = ts_node_end_byte(child);
      uint32_t m = ts::named_count(child);
      for (uint32_t j = 0; j <= m; ++j) {
        TSNode esc = j < m ? ts::named_child(child, j) : TSNode{};
        uint32_t stop = j < m ? ts_node_start_byte(esc) : end;
        if (stop > pos) {
          out.text.append(source_.substr(pos, stop - pos));
          out.map.append_run(pos, stop - pos);
        }
        if (j == m) break;
        std::string_view et = ts::text(esc, source_);
        uint32_t eb = ts_node_start_byte(esc);
        if (ts::is(esc, "escape_interpolation")) {  // "{{" in an f-string
          out.text.push_back(et.empty() ? '{' : et[0]);
          out.map.append(eb);
        } else if (raw) {
          out.text.append(et);
          out.map.append_run(eb, static_cast<uint32_t>(et.size()));
        } else {
          decode_escape(et, eb, out);
        }
        pos = ts_node_end_byte(esc);
      }
    } else if (t == "interpolation") {
      // f-string substitution: only constant expressions fold.
      TSNode expr = ts::field(child, "expression");
      if (ts_node_is_null(expr)) expr = ts::named_child(child, 0);
      auto inner = fold_string(expr, depth + 1);
      if (!inner) return std::nullopt;
      append(out, *inner);
      out.plain = false;
    }
  }
  (void)formatted;
  // Decoded text is charged like appended text: a long literal named many times is decoded each time.
  budget_charge(static_cast<int64_t>(out.text.size() * (1 + sizeof(uint32_t))));
  return out;
}

std::optional<FoldedString> ConstFolder::fold_string(TSNode expr, int depth) const {
  if (ts_node_is_null(expr) || depth > kMaxDepth || budget_exhausted()) return std::nullopt;
  std::string_view t = ts::type(expr);
  if (t == "string") return decode_literal(expr, depth);
  if (t == "concatenated_string") {
    FoldedString out;
    uint32_t n = ts::named_count(expr);
    for (uint32_t i = 0; i < n; ++i) {
      auto part = fold_string(ts::named_child(expr, i), depth + 1);
      if (!part) return std::nullopt;
      append(out, *part);
    }
    out.plain = false;
    return out;
  }
  if (t == "parenthesized_expression") return fold_string(ts::named_child(expr, 0), depth + 1);
  if (t == "binary_operator") {
    TSNode op = ts::field(expr, "operator");
    if (ts::text(op, source_) != "+") return std::nullopt;
    auto l = fold_string(ts::field(expr, "left"), depth + 1);
    if (!l) return std::nullopt;
    auto r = fold_string(ts::field(expr, "right"), depth + 1);
    if (!r) return std::nullopt;
    append(*l, *r);
    l->plain = false;
    return l;
  }
  if (t == "identifier") {
    auto bound = lookup_(expr);
    if (!bound) return std::nullopt;
    auto v = fold_string(*bound, depth + 1);
    if (v) v->plain = false;
    return v;
  }
  if (t == "call") {
    TSNode fn = ts::field(expr, "function");
    TSNode args = ts::field(expr, "arguments");
    if (ts::is(fn, "attribute")) {
      std::string_view method = ts::text(ts::field(fn, "attribute"), source_);
      TSNode obj = ts::field(fn, "object");
      if (method == "join") {
        auto sep = fold_string(obj, depth + 1);
        if (!sep || ts::named_count(args) != 1) return std::nullopt;
        auto parts = fold_string_list(ts::named_child(args, 0), depth + 1);
        if (!parts) return std::nullopt;
        FoldedString out;
        for (size_t i = 0; i < parts->size(); ++i) {
          if (i) append(out, *sep);
          append(out, (*parts)[i]);
        }
        out.plain = false;
        return out;
      }
      if (method == "dedent" && ts::named_count(args) == 1) {
        auto inner = fold_string(ts::named_child(args, 0), depth + 1);
        if (!inner) return std::nullopt;
        return dedent(*inner);
      }
      if ((method == "strip" || method == "lstrip" || method == "rstrip") && ts::named_count(args) == 0) {
        auto inner = fold_string(obj, depth + 1);
        if (!inner) return std::nullopt;
        size_t b = 0, e = inner->text.size();
        auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
        if (method != "rstrip")
          while (b < e && space(inner->text[b])) ++b;
        if (method != "lstrip")
          while (e > b && space(inner->text[e - 1])) --e;
        FoldedString out;
        out.plain = false;
        out.text = inner->text.substr(b, e - b);
        for (size_t i = b; i < e; ++i) out.map.append(inner->map.host_offset(static_cast<uint32_t>(i)));
        return out;
      }
    } else if (ts::text(fn, source_) == "dedent" && ts::named_count(args) == 1) {
      auto inner = fold_string(ts::named_child(args, 0), depth + 1);
      if (!inner) return std::nullopt;
      return dedent(*inner);
    }
  }
  return std::nullopt;
}

std::optional<std::vector<FoldedString>> ConstFolder::fold_string_list(TSNode expr, int depth) const {
  if (ts_node_is_null(expr) || depth > kMaxDepth) return std::nullopt;
  std::string_view t = ts::type(expr);
  if (t == "list" || t == "tuple") {
    std::vector<FoldedString> out;
    uint32_t n = ts::named_count(expr);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode item = ts::named_child(expr, i);
      if (ts::is(item, "comment")) continue;
      auto v = fold_string_list(item, depth + 1);
      if (!v) return std::nullopt;
      out.insert(out.end(), v->begin(), v->end());
    }
    return out;
  }
  if (t == "parenthesized_expression") return fold_string_list(ts::named_child(expr, 0), depth + 1);
  if (t == "identifier") {
    auto bound = lookup_(expr);
    if (bound) {
      if (auto v = fold_string_list(*bound, depth + 1)) return v;
    }
    return std::nullopt;
  }
  if (t == "binary_operator" && ts::text(ts::field(expr, "operator"), source_) == "+") {
    // string + string is one string; anything else that folds is list + list.
    if (auto single = fold_string(expr, depth + 1)) return std::vector<FoldedString>{std::move(*single)};
    auto l = fold_string_list(ts::field(expr, "left"), depth + 1);
    auto r = fold_string_list(ts::field(expr, "right"), depth + 1);
    if (l && r) {
      l->insert(l->end(), r->begin(), r->end());
      return l;
    }
    return std::nullopt;
  }
  auto single = fold_string(expr, depth + 1);
  if (!single) return std::nullopt;
  return std::vector<FoldedString>{std::move(*single)};
}

std::optional<int64_t> ConstFolder::fold_int(TSNode expr, int depth) const {
  if (ts_node_is_null(expr) || depth > kMaxDepth) return std::nullopt;
  std::string_view t = ts::type(expr);
  if (t == "integer") {
    std::string digits;
    for (char c : ts::text(expr, source_))
      if (c != '_') digits.push_back(c);
    try {
      return static_cast<int64_t>(std::stoll(digits, nullptr, 0));
    } catch (...) {
      return std::nullopt;
    }
  }
  if (t == "true") return 1;
  if (t == "false") return 0;
  if (t == "parenthesized_expression") return fold_int(ts::named_child(expr, 0), depth + 1);
  if (t == "unary_operator") {
    auto v = fold_int(ts::field(expr, "argument"), depth + 1);
    std::string_view op = ts::text(ts::field(expr, "operator"), source_);
    if (!v) return std::nullopt;
    if (op == "-") return -*v;
    if (op == "+") return v;
    return std::nullopt;
  }
  if (t == "binary_operator") {
    auto l = fold_int(ts::field(expr, "left"), depth + 1);
    auto r = fold_int(ts::field(expr, "right"), depth + 1);
    if (!l || !r) return std::nullopt;
    std::string_view op = ts::text(ts::field(expr, "operator"), source_);
    if (op == "+") return *l + *r;
    if (op == "-") return *l - *r;
    if (op == "*") return *l * *r;
    if (op == "//" && *r != 0) return *l / *r;
    return std::nullopt;
  }
  if (t == "identifier") {
    auto bound = lookup_(expr);
    if (bound) return fold_int(*bound, depth + 1);
  }
  return std::nullopt;
}

Truth ConstFolder::fold_truth(TSNode expr, int depth) const {
  if (ts_node_is_null(expr) || depth > kMaxDepth) return Truth::Unknown;
  std::string_view t = ts::type(expr);
  auto of = [](bool b) { return b ? Truth::True : Truth::False; };
  if (t == "true") return Truth::True;
  if (t == "false" || t == "none") return Truth::False;
  if (t == "integer") {
    auto v = fold_int(expr, depth + 1);
    return v ? of(*v != 0) : Truth::Unknown;
  }
  if (t == "string" || t == "concatenated_string") {
    auto s = fold_string(expr, depth + 1);
    return s ? of(!s->text.empty()) : Truth::Unknown;
  }
  if (t == "parenthesized_expression") return fold_truth(ts::named_child(expr, 0), depth + 1);
  if (t == "not_operator") {
    Truth v = fold_truth(ts::field(expr, "argument"), depth + 1);
    return v == Truth::Unknown ? v : of(v == Truth::False);
  }
  if (t == "boolean_operator") {
    Truth l = fold_truth(ts::field(expr, "left"), depth + 1);
    Truth r = fold_truth(ts::field(expr, "right"), depth + 1);
    std::string_view op = ts::text(ts::field(expr, "operator"), source_);
    if (op == "and") {
      if (l == Truth::False || r == Truth::False) return Truth::False;
      if (l == Truth::True && r == Truth::True) return Truth::True;
    } else {
      if (l == Truth::True || r == Truth::True) return Truth::True;
      if (l == Truth::False && r == Truth::False) return Truth::False;
    }
    return Truth::Unknown;
  }
  if (t == "comparison_operator" && ts::named_count(expr) == 2) {
    auto l = fold_int(ts::named_child(expr, 0), depth + 1);
    auto r = fold_int(ts::named_child(expr, 1), depth + 1);
    if (!l || !r) return Truth::Unknown;
    // The operator is the anonymous child between the operands.
    std::string_view op;
    for (uint32_t i = 0; i < ts::count(expr); ++i) {
      TSNode c = ts::child(expr, i);
      if (!ts_node_is_named(c)) op = ts::text(c, source_);
    }
    if (op == "==") return of(*l == *r);
    if (op == "!=") return of(*l != *r);
    if (op == "<") return of(*l < *r);
    if (op == "<=") return of(*l <= *r);
    if (op == ">") return of(*l > *r);
    if (op == ">=") return of(*l >= *r);
    return Truth::Unknown;
  }
  if (t == "identifier") {
    auto bound = lookup_(expr);
    if (bound) return fold_truth(*bound, depth + 1);
  }
  return Truth::Unknown;
}

}  // namespace kgate::python
