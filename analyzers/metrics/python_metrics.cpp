// Python counting rules (docs/metrics.md): McCabe decisions and Halstead operators as radon counts
// them on Python's ast, read from tree-sitter-python nodes; lines from python_lines.
#include "analyzers/metrics/python_metrics.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzers/metrics/maintainability.h"
#include "analyzers/metrics/python_lines.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::metrics {
namespace {

using ts::is;

bool is_function(TSNode n) { return is(n, "function_definition"); }
bool is_class(TSNode n) { return is(n, "class_definition"); }

TSNode unparenthesize(TSNode n) {
  while (is(n, "parenthesized_expression") && ts::named_count(n) == 1) n = ts::named_child(n, 0);
  return n;
}

// ----- McCabe -----

// `case x:` and `case _:` match anything (radon: a MatchAs without a pattern).
bool irrefutable_case(TSNode clause, std::string_view src) {
  for (TSNode c : ts::named_children(clause)) {
    if (!is(c, "case_pattern")) continue;
    const std::string_view text = ts::text(c, src);
    return !text.empty() &&
           text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
               std::string_view::npos &&
           !std::isdigit(static_cast<unsigned char>(text[0]));
  }
  return false;
}

// ----- Halstead -----

std::string number_key(std::string_view text) {
  std::string digits;
  for (char c : text)
    if (c != '_') digits.push_back(c);
  if (!digits.empty() && (digits.back() == 'j' || digits.back() == 'J')) return "c:" + digits;
  if (digits.size() > 2 && digits[0] == '0' && std::string_view("xXoObB").find(digits[1]) != std::string_view::npos) {
    const int base = digits[1] == 'x' || digits[1] == 'X' ? 16 : digits[1] == 'o' || digits[1] == 'O' ? 8 : 2;
    unsigned long long value = 0;
    auto [end, ec] = std::from_chars(digits.data() + 2, digits.data() + digits.size(), value, base);
    if (ec == std::errc() && end == digits.data() + digits.size()) return "n:" + std::to_string(value);
    return "n:" + digits;
  }
  const bool is_float = digits.find_first_of(".eE") != std::string::npos;
  if (!is_float) {
    size_t first = digits.find_first_not_of('0');
    return "n:" + (first == std::string::npos ? std::string("0") : digits.substr(first));
  }
  // Python: 2.0 == 2, so a float with an integral value is the same operand as that integer.
  const double value = std::strtod(digits.c_str(), nullptr);
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15)
    return "n:" + std::to_string(static_cast<long long>(value));
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "n:%.17g", value);
  return buffer;
}

// The text of a plain string literal without prefix and quotes, and whether it is bytes; nullopt-like
// (ok = false) for f-strings, which are not constants.
bool string_key(TSNode n, std::string_view src, std::string& out) {
  std::string_view text = ts::text(n, src);
  size_t q = text.find_first_of("'\"");
  if (q == std::string_view::npos) return false;
  const std::string_view prefix = text.substr(0, q);
  if (prefix.find_first_of("fF") != std::string_view::npos) return false;
  const bool bytes = prefix.find_first_of("bB") != std::string_view::npos;
  const bool triple = text.size() >= q + 6 && text.substr(q, 3) == std::string(3, text[q]);
  const size_t width = triple ? 3 : 1;
  if (text.size() < q + 2 * width) return false;
  out += text.substr(q + width, text.size() - q - 2 * width);
  return !bytes || (out.insert(0, "\x02"), true);
}

// Halstead's operators and operands of one block of code (a function, or the module).
struct HalsteadCounts {
  std::set<std::string> operators;
  std::set<std::string> operands;
  int64_t operators_total = 0;
  int64_t operands_total = 0;

  void fill(CodeMetrics& m) const {
    m.operators_distinct = static_cast<int64_t>(operators.size());
    m.operands_distinct = static_cast<int64_t>(operands.size());
    m.operators_total = operators_total;
    m.operands_total = operands_total;
  }
};

// One walk over a module measures the module and every function in it: radon's McCabe blocks (a
// function's or class's decisions exclude the defs and classes nested in it) and Halstead's counts
// (a function's include its nested functions, and the module's include everything; an operand is
// keyed by the innermost function it appears in). Each node is visited once; what it counts goes to
// every enclosing function that is open, instead of walking each function's subtree again.
class Measurer {
 public:
  struct Block {
    enum Kind { Module, Function, Class } kind;
    int parent;  // the block whose decisions this block's definition sits in; -1 for the module
    TSNode node;
    int64_t decisions = 0;
    int counts = -1;  // a function's Halstead counts (index into counts())
  };

  explicit Measurer(std::string_view src) : src_(src) {}

  void run(TSNode root) {
    blocks_.push_back(Block{Block::Module, -1, root});
    counts_.emplace_back();
    open_.push_back(0);
    visit(root, TSNode{}, "", 0);
  }

  const std::vector<Block>& blocks() const { return blocks_; }
  const HalsteadCounts& counts(size_t i) const { return counts_[i]; }

  // radon's total complexity of the module (the MI input): its functions and classes at module level,
  // a class counting 1 + its own decisions + the complexity of its methods. Linear in the blocks.
  int64_t module_complexity() const {
    std::vector<int64_t> methods(blocks_.size(), 0);  // per class: the complexity of its methods
    for (const Block& b : blocks_)
      if (b.kind == Block::Function && b.parent > 0 && blocks_[b.parent].kind == Block::Class)
        methods[b.parent] += 1 + b.decisions;
    int64_t total = 1 + blocks_[0].decisions;
    for (size_t i = 1; i < blocks_.size(); ++i) {
      if (blocks_[i].parent != 0) continue;
      if (blocks_[i].kind == Block::Function) total += blocks_[i].decisions;
      if (blocks_[i].kind == Block::Class) total += blocks_[i].decisions + methods[i];  // class complexity - 1
    }
    return total;
  }

 private:
  // `block`: the McCabe block that n's decisions count for, or -1 where none counts (a class's
  // decorators and bases). `context`: the innermost function's name ("" at module level).
  void visit(TSNode n, TSNode parent, const std::string& context, int block) {
    const std::string_view t = ts::type(n);
    if (t == "decorated_definition") {
      const TSNode def = ts::field(n, "definition");
      if (is_function(def)) {
        function(def, block);  // a function's decorators count neither as decisions nor for Halstead
        return;
      }
      if (is_class(def)) {  // a class's decorators count for Halstead only
        const uint32_t k = ts::count(n);
        for (uint32_t i = 0; i < k; ++i) {
          const TSNode c = ts::child(n, i);
          visit(c, n, context, ts_node_eq(c, def) ? block : -1);
        }
        return;
      }
    }
    if (t == "function_definition") {
      function(n, block);
      return;
    }
    if (t == "class_definition") {
      const int cls = static_cast<int>(blocks_.size());
      blocks_.push_back(Block{Block::Class, block, n});
      const TSNode body = ts::field(n, "body");
      const uint32_t k = ts::count(n);
      for (uint32_t i = 0; i < k; ++i) {
        const TSNode c = ts::child(n, i);
        visit(c, n, context, ts_node_eq(c, body) ? cls : -1);
      }
      return;
    }
    if (block >= 0) blocks_[block].decisions += decisions(n, t, parent);
    halstead(n, t, parent, context);
    // radon's visit_Assert adds 1 and does not walk the test: `assert a and b` is one decision.
    const int inner = t == "assert_statement" ? -1 : block;
    const uint32_t k = ts::count(n);
    for (uint32_t i = 0; i < k; ++i) visit(ts::child(n, i), n, context, inner);
  }

  // A def: its body only (not its decorators, defaults or annotations), as a block of its own, with
  // Halstead counts of its own that stay open while its body is walked.
  void function(TSNode def, int block) {
    const int self = static_cast<int>(blocks_.size());
    blocks_.push_back(Block{Block::Function, block, def});
    blocks_[self].counts = static_cast<int>(counts_.size());
    counts_.emplace_back();
    open_.push_back(blocks_[self].counts);
    const std::string name(ts::text(ts::field(def, "name"), src_));
    const TSNode body = ts::field(def, "body");
    for (TSNode c : ts::named_children(body)) visit(c, body, name, self);
    open_.pop_back();
  }

  // radon's decisions of one node (not of its children).
  int64_t decisions(TSNode n, std::string_view t, TSNode parent) const {
    if (t == "if_statement" || t == "elif_clause" || t == "conditional_expression" || t == "boolean_operator" ||
        t == "for_in_clause" || t == "assert_statement")
      return 1;
    if (t == "if_clause") return is(parent, "case_clause") ? 0 : 1;  // a comprehension's filter, not a case guard
    if (t == "for_statement" || t == "while_statement")
      return 1 + (ts_node_is_null(ts::field(n, "alternative")) ? 0 : 1);
    if (t == "try_statement") {
      int64_t count = 0;
      for (TSNode c : ts::named_children(n))
        if (is(c, "except_clause") || is(c, "except_group_clause") || is(c, "else_clause")) ++count;
      return count;
    }
    if (t == "match_statement") {
      int64_t cases = 0;
      bool irrefutable = false;
      for (TSNode c : ts::named_children(ts::field(n, "body")))
        if (is(c, "case_clause")) {
          ++cases;
          irrefutable = irrefutable || irrefutable_case(c, src_);
        }
      return std::max<int64_t>(0, cases - (irrefutable ? 1 : 0));
    }
    return 0;
  }

  // Halstead's operators and operands of one node (radon's visitor).
  void halstead(TSNode n, std::string_view t, TSNode parent, const std::string& context) {
    if (t == "binary_operator") {
      record(binary_name(ts::text(ts::field(n, "operator"), src_)), {ts::field(n, "left"), ts::field(n, "right")},
             context);
    } else if (t == "unary_operator") {
      const std::string_view op = ts::text(ts::field(n, "operator"), src_);
      record(op == "-" ? "USub" : op == "+" ? "UAdd" : "Invert", {ts::field(n, "argument")}, context);
    } else if (t == "not_operator") {
      record("Not", {ts::field(n, "argument")}, context);
    } else if (t == "boolean_operator") {
      const std::string_view op = ts::text(ts::field(n, "operator"), src_);
      // `a and b and c` is one BoolOp of three values; a parenthesised operand is a BoolOp of its own.
      const bool continues_parent = is(parent, "boolean_operator") &&
                                    ts::text(ts::field(parent, "operator"), src_) == op &&
                                    ts_node_eq(ts::field(parent, "left"), n);
      if (!continues_parent) {
        std::vector<TSNode> values;
        TSNode left = n;
        std::vector<TSNode> rights;
        while (is(left, "boolean_operator") && ts::text(ts::field(left, "operator"), src_) == op) {
          rights.push_back(ts::field(left, "right"));
          left = ts::field(left, "left");
        }
        values.push_back(left);
        for (auto it = rights.rbegin(); it != rights.rend(); ++it) values.push_back(*it);
        record(op == "and" ? "And" : "Or", values, context);
      }
    } else if (t == "comparison_operator") {
      std::vector<TSNode> operands;
      const uint32_t k = ts::count(n);
      for (uint32_t i = 0; i < k; ++i) {
        TSNode c = ts::child(n, i);
        if (ts_node_is_named(c)) {
          if (!is(c, "comment")) operands.push_back(c);
        } else {
          add_operator(compare_name(ts::type(c)));
        }
      }
      add_operands(operands, context);
    } else if (t == "augmented_assignment") {
      std::string_view op = ts::text(ts::field(n, "operator"), src_);
      op.remove_suffix(1);
      record(binary_name(op), {ts::field(n, "left"), ts::field(n, "right")}, context);
    }
  }

  static std::string binary_name(std::string_view op) {
    static const std::map<std::string_view, std::string_view> names = {
        {"+", "Add"},    {"-", "Sub"},    {"*", "Mult"},     {"@", "MatMult"}, {"/", "Div"},
        {"%", "Mod"},    {"**", "Pow"},   {"<<", "LShift"},  {">>", "RShift"}, {"|", "BitOr"},
        {"^", "BitXor"}, {"&", "BitAnd"}, {"//", "FloorDiv"}};
    auto it = names.find(op);
    return std::string(it == names.end() ? op : it->second);
  }
  static std::string compare_name(std::string_view op) {
    static const std::map<std::string_view, std::string_view> names = {
        {"<", "Lt"}, {"<=", "LtE"}, {"==", "Eq"},        {"!=", "NotEq"}, {"<>", "NotEq"},    {">=", "GtE"},
        {">", "Gt"}, {"in", "In"},  {"not in", "NotIn"}, {"is", "Is"},    {"is not", "IsNot"}};
    auto it = names.find(op);
    return std::string(it == names.end() ? op : it->second);
  }

  void add_operator(const std::string& name) {
    for (int i : open_) {
      counts_[i].operators.insert(name);
      ++counts_[i].operators_total;
    }
  }
  void record(const std::string& op, const std::vector<TSNode>& operands, const std::string& context) {
    add_operator(op);
    add_operands(operands, context);
  }
  void add_operands(const std::vector<TSNode>& operands, const std::string& context) {
    for (TSNode raw : operands) {
      const std::string key = context + '\x1f' + operand_key(unparenthesize(raw));
      for (int i : open_) {
        ++counts_[i].operands_total;
        counts_[i].operands.insert(key);
      }
    }
  }

  // Names, attributes and constants are the same operand wherever they recur (by name, by the last
  // attribute, by value); every other expression is an operand of its own.
  std::string operand_key(TSNode n) const {
    const std::string_view t = ts::type(n);
    if (t == "identifier") return "s:" + std::string(ts::text(n, src_));
    if (t == "attribute") return "s:" + std::string(ts::text(ts::field(n, "attribute"), src_));
    if (t == "integer" || t == "float") return number_key(ts::text(n, src_));
    if (t == "true") return "n:1";
    if (t == "false") return "n:0";
    if (t == "none") return "k:None";
    if (t == "ellipsis") return "k:...";
    if (t == "string" || t == "concatenated_string") {
      std::string value;
      bool constant = true;
      if (t == "string")
        constant = string_key(n, src_, value);
      else
        for (TSNode part : ts::named_children(n))
          constant = constant && is(part, "string") && string_key(part, src_, value);
      if (constant) return "s:" + value;
    }
    return "#" + std::to_string(ts::key(n));
  }

  std::string_view src_;
  std::vector<Block> blocks_;
  std::vector<HalsteadCounts> counts_;  // [0]: the module's
  std::vector<int> open_;               // the counts of the module and of the functions being walked
};

// The function facts of the host module, by the position of their name.
std::map<std::pair<uint32_t, uint32_t>, size_t> functions_by_position(const FactSet& facts) {
  std::map<std::pair<uint32_t, uint32_t>, size_t> out;
  for (size_t i = 0; i < facts.functions.size(); ++i) {
    const Function& f = facts.functions[i];
    if (f.module == 0 && f.kind != FunctionKind::Lambda && f.kind != FunctionKind::ModuleBody)
      out[{f.span.line, f.span.col}] = i;
  }
  return out;
}

}  // namespace

void measure_python(TSNode root, std::string_view text, FactSet& facts) {
  if (facts.modules.empty()) return;
  const std::vector<LineGroup> groups = python_line_groups(text);
  // Prefix sums over the groups (sorted by line): a function's lines in O(log n), so that a file of
  // many small functions stays linear.
  std::vector<LineTotals> prefix(groups.size() + 1);
  for (size_t i = 0; i < groups.size(); ++i) {
    prefix[i + 1] = prefix[i];
    prefix[i + 1].add(groups[i]);
  }
  auto lines_between = [&](uint32_t first, uint32_t last) {
    auto starts_before = [&](uint32_t line) {
      return static_cast<size_t>(std::lower_bound(groups.begin(), groups.end(), line,
                                                  [](const LineGroup& g, uint32_t l) { return g.first_line < l; }) -
                                 groups.begin());
    };
    const LineTotals& hi = prefix[starts_before(last + 1)];
    const LineTotals& lo = prefix[starts_before(first)];
    LineTotals totals;
    totals.sloc = hi.sloc - lo.sloc;
    totals.multi = hi.multi - lo.multi;
    totals.comments = hi.comments - lo.comments;
    totals.lloc = hi.lloc - lo.lloc;
    return totals;
  };

  Measurer measurer(text);
  measurer.run(root);
  const auto by_position = functions_by_position(facts);
  for (const Measurer::Block& block : measurer.blocks()) {
    if (block.kind != Measurer::Block::Function) continue;
    const TSNode def = block.node;
    const TSPoint name_at = ts_node_start_point(ts::field(def, "name"));
    auto it = by_position.find({name_at.row + 1, name_at.column + 1});
    if (it == by_position.end()) continue;
    CodeMetrics& m = facts.functions[it->second].metrics;
    m.cyclomatic = 1 + block.decisions;
    measurer.counts(static_cast<size_t>(block.counts)).fill(m);
    const LineTotals lines = lines_between(ts_node_start_point(def).row + 1, ts_node_end_point(def).row + 1);
    m.sloc = lines.sloc;
    m.lloc = lines.lloc;
    m.comment_lines = lines.comments + lines.multi;
    m.counted_by = "tree-sitter-python";
    finish(m, lines.comment_percent());
  }

  CodeMetrics& file = facts.modules[0].metrics;
  file.cyclomatic = measurer.module_complexity();
  measurer.counts(0).fill(file);
  LineTotals lines;
  for (const LineGroup& g : groups) lines.add(g);
  file.sloc = lines.sloc;
  file.lloc = lines.lloc;
  file.comment_lines = lines.comments + lines.multi;
  file.counted_by = "tree-sitter-python";
  finish(file, lines.comment_percent());
  // File findings sit on the first line of code, where an annotation or a suppression can name them.
  for (const LineGroup& g : groups)
    if (g.sloc > 0 || g.multi > 0) {
      facts.modules[0].span = Span{g.first_line, 1, g.first_line, 1};
      break;
    }
}

}  // namespace kgate::metrics
