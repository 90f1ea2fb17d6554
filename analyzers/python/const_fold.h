// Folds Python expressions to constants: strings (with a source map back to the host file),
// lists of strings, integers and truth values. Used for load_inline sources, getattr names and guards.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/source.h"

namespace kgate::python {

struct FoldedString {
  std::string text;
  SourceMap map;      // decoded byte -> host byte
  bool plain = true;  // a single literal, with no concatenation, variable or call involved
};

enum class Truth { False, True, Unknown };

class ConstFolder {
 public:
  // Resolves an identifier node to the expression bound to it, if one binding is known.
  using Lookup = std::function<std::optional<TSNode>(TSNode identifier)>;

  ConstFolder(std::string_view source, Lookup lookup) : source_(source), lookup_(std::move(lookup)) {}

  std::optional<FoldedString> fold_string(TSNode expr, int depth = 0) const;
  // A string, or a list/tuple of strings: each element separately.
  std::optional<std::vector<FoldedString>> fold_string_list(TSNode expr, int depth = 0) const;
  std::optional<int64_t> fold_int(TSNode expr, int depth = 0) const;
  Truth fold_truth(TSNode expr, int depth = 0) const;

 private:
  std::optional<FoldedString> decode_literal(TSNode string_node, int depth) const;
  std::string_view source_;
  Lookup lookup_;
};

}  // namespace kgate::python
