#include "analyzers/pipeline/task_seed.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "analyzers/treesitter/ts_node.h"

namespace kgate {

namespace {

constexpr int kMaxDepth = 8;  // locals followed back from a seed's argument

bool is_seeding(const Call& call) {
  return call.resolved.rfind("torch.", 0) == 0 &&
         (call.method == "manual_seed" || call.method == "manual_seed_all" || call.method == "seed");
}

// PyTorch's sampling calls: what they return is fixed by the generator's state and their arguments.
bool is_random_draw(const Call& call) {
  static const std::set<std::string> draws = {"torch.multinomial",
                                              "torch.rand",
                                              "torch.randn",
                                              "torch.randint",
                                              "torch.randperm",
                                              "torch.bernoulli",
                                              "torch.normal",
                                              "torch.poisson",
                                              "torch.rand_like",
                                              "torch.randn_like",
                                              "torch.randint_like",
                                              "torch.Tensor.multinomial",
                                              "torch.Tensor.bernoulli",
                                              "torch.Tensor.bernoulli_",
                                              "torch.Tensor.uniform_",
                                              "torch.Tensor.normal_",
                                              "torch.Tensor.exponential_",
                                              "torch.Tensor.random_",
                                              "torch.Tensor.geometric_",
                                              "torch.Tensor.cauchy_",
                                              "torch.Tensor.log_normal_"};
  return draws.count(call.resolved) > 0;
}

// A draw by its sampler, whichever way it is written: torch.multinomial(p, 1) and p.multinomial(1),
// torch.bernoulli(p) and p.bernoulli_().
std::string draw_key(const Call& call) {
  std::string key = call.method;
  if (!key.empty() && key.back() == '_') key.pop_back();
  return key;
}

// The syntax node of a call fact (its span covers the whole call expression); null if not found.
TSNode call_node(const SourceFile& source, TSNode root, const Call& call) {
  if (!call.span.valid() || call.span.end_line > source.lines.line_count()) return {};
  const uint32_t begin = source.lines.line_range(call.span.line).first + call.span.col - 1;
  const uint32_t end = source.lines.line_range(call.span.end_line).first + call.span.end_col - 1;
  if (begin >= end || end > source.text.size()) return {};
  for (TSNode n = ts_node_descendant_for_byte_range(root, begin, end); !ts_node_is_null(n); n = ts::parent(n))
    if (ts::is(n, "call") && ts_node_start_byte(n) == begin) return n;
  return {};
}

// Follows the value of an expression back to the parameters it is computed from.
class ParameterFlow {
 public:
  ParameterFlow(TSNode body, const std::vector<std::string>& params, std::string_view source)
      : body_(body), params_(params), source_(source) {}

  // The one parameter `expr` is computed from, alone; nullopt when it reads anything else (a global, a
  // call other than int/float/abs, a constant outside a subscript) or more than one parameter.
  std::optional<std::string> sole_parameter(TSNode expr) {
    found_.clear();
    seen_.clear();
    if (!follow(expr, ts_node_start_byte(expr), 0) || found_.size() != 1) return std::nullopt;
    return *found_.begin();
  }

 private:
  bool follow(TSNode expr, uint32_t before, int depth) {
    if (depth > kMaxDepth) return false;
    std::vector<std::string> names;
    bool ok = true;
    ts::preorder(expr, [&](TSNode n) {
      if (!ok) return false;
      if (!ts_node_is_named(n)) return true;
      const std::string_view type = ts::type(n);
      const TSNode p = ts::parent(n);
      if (type == "identifier") {
        if (ts::is(p, "attribute") && ts_node_eq(n, ts::field(p, "attribute"))) {
          // Reads that keep the value (seed.item(), seed.cpu()); seed.numel() or seed.shape[0] is a
          // number the submission chose.
          static const std::set<std::string_view> kKeeps = {"item",    "tolist",     "cpu",   "cuda",    "to",
                                                            "int",     "long",       "view",  "reshape", "flatten",
                                                            "squeeze", "contiguous", "clone", "detach",  "data"};
          ok = kKeeps.count(ts::text(n, source_)) > 0;
          return true;
        }
        if (ts::is(p, "keyword_argument") && ts_node_eq(n, ts::field(p, "name"))) return true;
        if (ts::is(p, "call") && ts_node_eq(n, ts::field(p, "function"))) {
          const std::string_view name = ts::text(n, source_);
          ok = name == "int" || name == "float" || name == "abs";
          return true;
        }
        names.emplace_back(ts::text(n, source_));
        return true;
      }
      if (type == "integer") {
        ok = ts::is(p, "subscript") && ts_node_eq(n, ts::field(p, "subscript"));
        return true;
      }
      // No arithmetic: `seed - seed` or `seed // seed` is a constant again.
      ok = type == "attribute" || type == "call" || type == "argument_list" || type == "keyword_argument" ||
           type == "subscript" || type == "parenthesized_expression" || type == "comment";
      return ok;
    });
    if (!ok) return false;
    for (const std::string& name : names) {
      if (std::find(params_.begin(), params_.end(), name) != params_.end()) {
        found_.insert(name);
        continue;
      }
      if (!seen_.insert(name).second) continue;
      // A local: every assignment to it before this point must flow from the parameter too. A name
      // never assigned so (a global, a loop variable, a tuple target) is not followed.
      std::vector<TSNode> assignments;
      ts::preorder(body_, [&](TSNode n) {
        if (ts_node_start_byte(n) < before && (ts::is(n, "assignment") || ts::is(n, "augmented_assignment")) &&
            ts::is(ts::field(n, "left"), "identifier") && ts::text(ts::field(n, "left"), source_) == name)
          assignments.push_back(n);
        return true;
      });
      if (assignments.empty()) return false;
      for (TSNode a : assignments) {
        const TSNode right = ts::field(a, "right");
        if (ts_node_is_null(right) || !follow(right, ts_node_start_byte(a), depth + 1)) return false;
      }
    }
    return true;
  }

  TSNode body_;
  const std::vector<std::string>& params_;
  std::string_view source_;
  std::set<std::string> found_;
  std::set<std::string> seen_;
};

// The parameter a seeding call takes its seed from alone (every argument flows from it), or nullopt.
std::optional<std::string> seed_parameter(const FactSet& facts, const SourceFile& source, TSNode root,
                                          const Call& call) {
  if (!is_seeding(call) || call.function < 0 || call.function >= static_cast<int>(facts.functions.size()) ||
      call.module != 0)
    return std::nullopt;
  const TSNode node = call_node(source, root, call);
  const TSNode args = ts::field(node, "arguments");
  if (ts::named_count(args) == 0) return std::nullopt;
  TSNode body{};
  for (TSNode n = ts::parent(node); !ts_node_is_null(n); n = ts::parent(n))
    if (ts::is(n, "function_definition")) {
      body = ts::field(n, "body");
      break;
    }
  if (ts_node_is_null(body)) return std::nullopt;
  ParameterFlow flow(body, facts.functions[call.function].params, source.text);
  std::optional<std::string> param;
  for (TSNode arg : ts::named_children(args)) {
    if (ts::is(arg, "comment")) continue;
    const TSNode value = ts::is(arg, "keyword_argument") ? ts::field(arg, "value") : arg;
    auto from = flow.sole_parameter(value);
    if (!from || (param && *param != *from)) return std::nullopt;
    param = from;
  }
  return param;
}

}  // namespace

SeededDraws read_seeded_draws(const FactSet& reference, const SourceFile& source, TSNode root) {
  SeededDraws out;
  std::set<int> seeding;
  for (const Call& call : reference.calls)
    if (auto param = seed_parameter(reference, source, root, call)) {
      out.seed_params.insert(*param);
      seeding.insert(call.function);
    }
  for (const Call& call : reference.calls)
    if (seeding.count(call.function) && is_random_draw(call)) out.draws.insert(draw_key(call));
  return out;
}

void mark_seeded_draws(FactSet& candidate, const SourceFile& source, TSNode root, const SeededDraws& reference) {
  if (reference.empty()) return;
  std::set<int> seeded;
  for (Call& call : candidate.calls)
    if (auto param = seed_parameter(candidate, source, root, call); param && reference.seed_params.count(*param)) {
      call.mirrors_reference = true;
      seeded.insert(call.function);
    }
  for (Call& call : candidate.calls)
    if (seeded.count(call.function) && is_random_draw(call) && reference.draws.count(draw_key(call)))
      call.mirrors_reference = true;
}

}  // namespace kgate
