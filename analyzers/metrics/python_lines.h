// Line counts of Python source (SLOC, LLOC, comments, multi-line strings) by radon's raw rules.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace kgate::metrics {

// One group of physical lines that tokenizes on its own (a logical line, as radon groups them).
struct LineGroup {
  uint32_t first_line = 1;  // 1-based
  uint32_t last_line = 1;
  int64_t sloc = 0;      // non-blank lines of code in the group
  int64_t multi = 0;     // non-blank lines of a multi-line string statement (a docstring)
  int64_t comments = 0;  // comment tokens
  int64_t lloc = 0;      // logical lines
};

struct LineTotals {
  int64_t sloc = 0, multi = 0, comments = 0, lloc = 0;
  void add(const LineGroup& g) {
    sloc += g.sloc;
    multi += g.multi;
    comments += g.comments;
    lloc += g.lloc;
  }
  // Comment lines (comments and multi-line strings) as a percentage of SLOC: the MI comment term.
  double comment_percent() const {
    return sloc > 0 ? static_cast<double>(comments + multi) / static_cast<double>(sloc) * 100.0 : 0.0;
  }
};

// Splits `text` into groups (docs/metrics.md, "Python lines").
std::vector<LineGroup> python_line_groups(std::string_view text);

}  // namespace kgate::metrics
