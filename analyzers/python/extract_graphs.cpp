// CUDA graphs: whether a replay reads the inputs of the call that replays it, and whether a capture
// records the submission's own work. A graph that is replayed only for the input it was captured on
// (an identity guard or a pointer-keyed plan), right after its capture, or after the new inputs are
// copied into its static buffers recomputes the result; one replayed blindly reruns stale work.
#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

namespace {

bool is_capture_path(const std::string& path) {
  return path == "torch.cuda.graph" || path == "torch.cuda.graphs.graph";
}

// Whose graphs a capture or replay in `function` belongs to: its class ("" for module functions).
std::string graph_owner(const FactSet& facts, int function) {
  return function >= 0 ? facts.functions[function].class_name : std::string();
}

}  // namespace

// A parameter of this function, or a local bound only to a view or copy of one
// (`x = hidden_states.contiguous()`, `q = query.view(B, -1)`).
bool Extractor::is_input_name(TSNode node, int scope, int depth) const {
  if (!ts::is(node, "identifier") || depth > 3) return false;
  const Found f = find_name(std::string(ts::text(node, src_)), scope);
  if (f.k == Found::K::Param && f.scope == scope) return true;
  if (f.k != Found::K::Binding || f.scope != scope || !f.bindings || f.bindings->empty()) return false;
  static const std::unordered_set<std::string_view> views = {
      "contiguous", "view",    "reshape",   "to",      "float",     "half", "bfloat16", "clone",  "detach",
      "flatten",    "squeeze", "unsqueeze", "permute", "transpose", "t",    "expand",   "narrow", "cuda"};
  bool from_input = false;
  for (const Binding& b : *f.bindings) {
    TSNode root = b.expr;
    while (ts::is(root, "call") && ts::is(ts::field(root, "function"), "attribute") &&
           views.count(ts::text(ts::field(ts::field(root, "function"), "attribute"), src_)))
      root = ts::field(ts::field(root, "function"), "object");
    // `offs = offs.to(torch.int32)`: a view of the name's earlier binding.
    if (ts::is(root, "identifier") && ts::text(root, src_) == ts::text(node, src_) && !ts_node_eq(root, b.expr))
      continue;
    if (ts_node_is_null(root) || ts_node_eq(root, node) || !is_input_name(root, scope, depth + 1)) return false;
    from_input = true;
  }
  return from_input;
}

// Which way a condition that tests the input's identity points: +1 when true means "the input the
// graph was captured for" (`x is self._x`, `key == self._key`, `plan is not None` for a plan looked
// up by the input's key), -1 when true means "another input" (`ptr != self._ptr`, `plan is None`),
// 0 when the condition does not test the input's identity. The identity calls found go to `keys`.
// The operator of a two-operand comparison ("is", "is not", "==", ...): its unnamed child.
std::string Extractor::comparison_operator(TSNode cond) const {
  std::string op;
  for (uint32_t i = 0; i < ts::count(cond); ++i)
    if (!ts_node_is_named(ts::child(cond, i))) op = std::string(ts::text(ts::child(cond, i), src_));
  return op;
}

int Extractor::identity_polarity(TSNode cond, int scope, std::vector<uint32_t>& keys) {
  if (ts_node_is_null(cond)) return 0;
  if (ts::is(cond, "parenthesized_expression")) return identity_polarity(ts::named_child(cond, 0), scope, keys);
  if (ts::is(cond, "not_operator")) return -identity_polarity(ts::field(cond, "argument"), scope, keys);
  if (ts::is(cond, "boolean_operator")) {
    const int left = identity_polarity(ts::field(cond, "left"), scope, keys);
    return left != 0 ? left : identity_polarity(ts::field(cond, "right"), scope, keys);
  }
  if (!ts::is(cond, "comparison_operator") || ts::named_count(cond) != 2) return 0;
  const std::string op = comparison_operator(cond);
  const bool equal = op == "is" || op == "==";
  if (!equal && op != "is not" && op != "!=") return 0;
  TSNode a = ts::named_child(cond, 0), b = ts::named_child(cond, 1);
  if (ts::is(a, "none")) std::swap(a, b);
  if (ts::is(b, "none")) {
    // `plan is None`: no plan was found for this input's key.
    std::vector<uint32_t> found;
    if (!identifies_input(a, scope, 0, found)) return 0;
    keys.insert(keys.end(), found.begin(), found.end());
    return equal ? -1 : 1;
  }
  std::vector<uint32_t> found;
  const bool named = is_input_name(a, scope) || is_input_name(b, scope);
  const bool identifies = named || identifies_input(a, scope, 0, found) || identifies_input(b, scope, 0, found);
  if (!identifies) return 0;
  // `x is self._x` is itself the key (record_identity_comparison records it at the comparison).
  if (named) found.push_back(ts_node_start_byte(cond));
  keys.insert(keys.end(), found.begin(), found.end());
  return equal ? 1 : -1;
}

// `x is self._x`, `x.data_ptr()` or `id(x)` on a parameter of this function, or a name bound to an
// expression holding one (`key = (x.data_ptr(), M)`). When it does, every identity call of the
// expression is part of that key (`(x.data_ptr(), w.data_ptr(), out.data_ptr())`) and goes to `keys`.
bool Extractor::identifies_input(TSNode expr, int scope, int depth, std::vector<uint32_t>& keys) {
  if (ts_node_is_null(expr) || depth > 3) return false;
  bool found = false;
  std::vector<uint32_t> identity_calls;
  ts::preorder(expr, [&](TSNode node) {
    if (ts::is(node, "comparison_operator")) {
      bool identity = false;
      for (uint32_t i = 0; i < ts::count(node); ++i) {
        const std::string_view op = ts::text(ts::child(node, i), src_);
        if (op == "is" || op == "is not") identity = true;
      }
      for (uint32_t i = 0; identity && i < ts::named_count(node); ++i)
        if (is_input_name(ts::named_child(node, i), scope)) found = true;
    } else if (ts::is(node, "call")) {
      TSNode fn = ts::field(node, "function");
      TSNode args = ts::field(node, "arguments");
      const bool data_ptr = ts::is(fn, "attribute") && ts::text(ts::field(fn, "attribute"), src_) == "data_ptr";
      const bool id = ts::is(fn, "identifier") && ts::text(fn, src_) == "id" && ts::named_count(args) == 1;
      if (data_ptr || id) {
        identity_calls.push_back(ts_node_start_byte(node));
        if (is_input_name(data_ptr ? ts::field(fn, "object") : ts::named_child(args, 0), scope)) found = true;
      }
    } else if (ts::is(node, "identifier") && !is_input_name(node, scope)) {
      const Found f = find_name(std::string(ts::text(node, src_)), scope);
      if (f.k == Found::K::Binding && f.scope == scope && f.bindings)
        for (const Binding& b : *f.bindings)
          if (!ts_node_is_null(b.expr) && !ts_node_eq(b.expr, expr) && identifies_input(b.expr, scope, depth + 1, keys))
            found = true;
    }
    return true;
  });
  if (found) keys.insert(keys.end(), identity_calls.begin(), identity_calls.end());
  return found;
}

// A statement that refreshes what a later replay reads: a capture (`with torch.cuda.graph(g):`, so the
// graph was just recorded on this call's inputs) or a copy of a parameter into a static buffer.
bool Extractor::refreshes_graph_inputs(TSNode statement, int scope, std::vector<std::string>& copied_into) {
  if (ts::is(statement, "with_statement")) {
    TSNode clause = ts::named_child(statement, 0);
    for (uint32_t i = 0; i < ts::named_count(clause); ++i) {
      TSNode value = ts::field(ts::named_child(clause, i), "value");
      if (ts::is(value, "as_pattern")) value = ts::named_child(value, 0);
      if (ts::is(value, "call") && is_capture_path(value_path(eval(ts::field(value, "function"), scope), value)))
        return true;
    }
    return false;
  }
  // if self._graph is None or x is not self._x: <capture>
  if (ts::is(statement, "if_statement")) {
    std::vector<uint32_t> keys;
    TSNode consequence = ts::field(statement, "consequence");
    bool captures = false;
    std::vector<std::string> conditional;  // a copy made only on some calls refreshes nothing
    for (uint32_t i = 0; i < ts::named_count(consequence) && !captures; ++i)
      captures = refreshes_graph_inputs(ts::named_child(consequence, i), scope, conditional);
    // The capture runs when the input is another one than the last capture's.
    if (captures && identity_polarity(ts::field(statement, "condition"), scope, keys) < 0) {
      graph_keys_.insert(keys.begin(), keys.end());
      return true;
    }
    return false;
  }
  if (!ts::is(statement, "expression_statement")) return false;
  TSNode call = ts::named_child(statement, 0);
  if (!ts::is(call, "call")) return false;
  TSNode fn = ts::field(call, "function");
  if (!ts::is(fn, "attribute") || ts::text(ts::field(fn, "attribute"), src_) != "copy_") return false;
  TSNode source = ts::named_child(ts::field(call, "arguments"), 0);
  while (ts::is(source, "call") && ts::is(ts::field(source, "function"), "attribute"))
    source = ts::field(ts::field(source, "function"), "object");  // x.view(-1), x.to(dtype)
  while (ts::is(source, "subscript")) source = ts::field(source, "value");
  if (!is_input_name(source, scope)) return false;
  // The buffer copied into: the replay reads the new input only if the graph was captured reading it.
  TSNode target = ts::field(fn, "object");
  while (ts::is(target, "subscript")) target = ts::field(target, "value");
  copied_into.emplace_back(ts::text(ts::is(target, "attribute") ? ts::field(target, "attribute") : target, src_));
  return false;  // decided once the file's captures are known (finish_graphs)
}

bool Extractor::graph_replay_refreshed(TSNode call, int scope, std::vector<uint32_t>& keys,
                                       std::vector<std::string>& copied_into) {
  // The graph comes from a plan looked up by the input's identity: self._plans[key], plans.get(key).
  TSNode fn = ts::field(call, "function");
  TSNode receiver = ts::is(fn, "attribute") ? ts::field(fn, "object") : TSNode{};
  while (ts::is(receiver, "attribute")) receiver = ts::field(receiver, "object");
  const auto keyed_lookup = [&](TSNode expr) {
    if (ts::is(expr, "subscript")) return identifies_input(ts::field(expr, "subscript"), scope, 0, keys);
    if (ts::is(expr, "call") && ts::is(ts::field(expr, "function"), "attribute")) {
      const std::string_view method = ts::text(ts::field(ts::field(expr, "function"), "attribute"), src_);
      if (method == "get" || method == "setdefault" || method == "pop")
        return identifies_input(ts::named_child(ts::field(expr, "arguments"), 0), scope, 0, keys);
    }
    return false;
  };
  if (keyed_lookup(receiver)) return true;
  if (ts::is(receiver, "identifier")) {
    const Found f = find_name(std::string(ts::text(receiver, src_)), scope);
    if (f.k == Found::K::Binding && f.bindings)
      for (const Binding& b : *f.bindings)
        if (!ts_node_is_null(b.expr) && keyed_lookup(b.expr)) return true;
  }
  // An enclosing `if` that identifies the input, or an earlier statement of an enclosing block that
  // captured the graph or copied the inputs in.
  for (TSNode child = call, at = ts::parent(call); !ts_node_is_null(at); child = at, at = ts::parent(at)) {
    if (ts::is(at, "function_definition") || ts::is(at, "lambda")) break;
    // Replayed in the branch of an identity test that means "the input the graph was captured for".
    if ((ts::is(at, "if_statement") || ts::is(at, "elif_clause")) && ts_node_eq(ts::field(at, "consequence"), child) &&
        identity_polarity(ts::field(at, "condition"), scope, keys) > 0)
      return true;
    if (ts::is(at, "else_clause") && ts::is(ts::parent(at), "if_statement") &&
        identity_polarity(ts::field(ts::parent(at), "condition"), scope, keys) < 0)
      return true;
    if (ts::is(at, "block") || ts::is(at, "module"))
      for (uint32_t i = 0; i < ts::named_count(at); ++i) {
        TSNode statement = ts::named_child(at, i);
        if (ts_node_start_byte(statement) >= ts_node_start_byte(child)) break;
        if (refreshes_graph_inputs(statement, scope, copied_into)) return true;
      }
  }
  return false;
}

// `with torch.cuda.graph(g):` whose body calls something that is not a PyTorch or builtin function:
// the submission's kernels, an extension, or its own helpers. A body of PyTorch ops only (a copy of a
// stored result, tensor arithmetic) records no work of the submission's.
bool Extractor::capture_runs_own_work(TSNode capture_call, int scope) {
  TSNode at = ts::parent(capture_call);
  while (!ts_node_is_null(at) && !ts::is(at, "with_statement")) {
    if (!ts::is(at, "with_item") && !ts::is(at, "with_clause") && !ts::is(at, "as_pattern")) return false;
    at = ts::parent(at);
  }
  TSNode body = ts::field(at, "body");
  if (ts_node_is_null(body)) return false;
  const int fn_index = fn_of(scope);
  CaptureInfo capture{graph_owner(facts_, fn_index), ts_node_start_byte(body), ts_node_end_byte(body), {}};
  bool own = false;
  ts::preorder(body, [&](TSNode node) {
    if (ts::is(node, "call")) {
      TSNode fn = ts::field(node, "function");
      if (ts::is(fn, "subscript")) {
        own = true;  // kernel[grid](...)
      } else {
        const Value callee = eval(fn, scope);
        const std::string path = callee.k == Value::K::Path ? callee.path : std::string();
        // A helper of this file called in the capture is captured too: what it reads counts.
        if (callee.k == Value::K::Function && callee.index >= 0 &&
            callee.index < static_cast<int>(function_nodes_.size()) && !ts_node_is_null(function_nodes_[callee.index]))
          capture.helpers.push_back(callee.index);
        own = own || (path.rfind("torch.", 0) != 0 && path.rfind("builtins.", 0) != 0 && path.rfind("math.", 0) != 0 &&
                      path != "operator.matmul");
      }
    }
    return true;
  });
  captures_.push_back(std::move(capture));
  return own;
}

bool Extractor::graph_replay_call(const Call& c) {
  return c.method == "replay" || c.resolved == "torch.cuda.CUDAGraph.replay";
}

void Extractor::note_graph_call(TSNode node, int scope, Call& c) {
  if (graph_replay_call(c)) {
    std::vector<uint32_t> keys;
    std::vector<std::string> copied_into;
    c.graph_refreshed = graph_replay_refreshed(node, scope, keys, copied_into);
    if (c.graph_refreshed) graph_keys_.insert(keys.begin(), keys.end());
    if (!c.graph_refreshed && !copied_into.empty()) copy_in_replays_[ts_node_start_byte(node)] = copied_into;
  } else if (is_capture_path(c.resolved)) {
    c.graph_refreshed = capture_runs_own_work(node, scope);
  }
}

// The identity calls that key a refreshed replay are that replay's key, not a result cache's; and when
// every capture and replay of a class (or of the module's functions) is refreshed, so are the graphs
// it constructs.
void Extractor::finish_graphs() {
  // A copy of the input into a buffer refreshes a replay when some capture of the file reads that
  // buffer (`self.static_x.copy_(x)`, captured as `kernel(self.static_x, ...)`).
  std::unordered_map<std::string, std::pair<bool, bool>> by_owner;  // class -> (replays, all refreshed)
  for (size_t i = 0; i < facts_.calls.size(); ++i) {
    Call& c = facts_.calls[i];
    if (auto it = copy_in_replays_.find(call_start_[i]); it != copy_in_replays_.end() && graph_replay_call(c))
      c.graph_refreshed = std::any_of(it->second.begin(), it->second.end(),
                                      [&](const std::string& name) { return captured_mentions(name); });
    if (graph_keys_.count(call_start_[i])) c.graph_key = true;
    if (!graph_replay_call(c) && !is_capture_path(c.resolved)) continue;
    auto& [replays, all_refreshed] = by_owner.try_emplace(graph_owner(facts_, c.function), false, true).first->second;
    if (graph_replay_call(c)) replays = true;
    if (!c.graph_refreshed) all_refreshed = false;
    if (graph_replay_call(c) && c.graph_refreshed) {
      refreshed_replays_.push_back(call_start_[i]);
      // A refreshed replay runs what its class's captures recorded: their helpers are called from here.
      for (const CaptureInfo& capture : captures_)
        if (capture.owner == graph_owner(facts_, c.function))
          for (int h : capture.helpers) add_edge(c.function, h, edge_dead(c.guard));
    }
  }
  for (Call& c : facts_.calls) {
    if (c.resolved != "torch.cuda.CUDAGraph" && c.resolved != "torch.cuda.graph_pool_handle") continue;
    const auto it = by_owner.find(graph_owner(facts_, c.function));
    if (it != by_owner.end() && it->second.first && it->second.second) c.graph_refreshed = true;
  }
}

// Whether a capture of the file (its body, or a helper of this file it calls) names `name` as a word:
// the buffers a graph reads and writes are the ones its capture names.
bool Extractor::captured_mentions(const std::string& name) const {
  const auto mentions_word = [&](uint32_t begin, uint32_t end) {
    const std::string_view text = src_.substr(begin, end - begin);
    for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      const auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
      const bool starts = at == 0 || !word(text[at - 1]);
      const bool ends = at + name.size() >= text.size() || !word(text[at + name.size()]);
      if (starts && ends) return true;
    }
    return false;
  };
  return std::any_of(captures_.begin(), captures_.end(), [&](const CaptureInfo& capture) {
    if (mentions_word(capture.begin, capture.end)) return true;
    return std::any_of(capture.helpers.begin(), capture.helpers.end(), [&](int h) {
      return mentions_word(ts_node_start_byte(function_nodes_[h]), ts_node_end_byte(function_nodes_[h]));
    });
  });
}

// After reachability: a launch written inline in a capture (in __init__, say) runs whenever a refreshed
// replay of its class runs on the entry's path.
void Extractor::finish_graph_launches() {
  std::unordered_set<std::string> replayed;  // owners with a refreshed replay on the entry's path
  for (const Call& c : facts_.calls)
    if (graph_replay_call(c) && c.graph_refreshed && c.reachable) replayed.insert(graph_owner(facts_, c.function));
  for (const CaptureInfo& capture : captures_) {
    if (!replayed.count(capture.owner)) continue;
    for (size_t l = 0; l < facts_.launches.size(); ++l)
      if (launch_start_[l] >= capture.begin && launch_start_[l] < capture.end && !facts_.launches[l].guard.dead())
        facts_.launches[l].reachable = true;
  }
}

// `return out.clone()` after a refreshed replay in this function (an earlier statement of an enclosing
// block): a fresh copy of what the replay just computed, not an output kept from an earlier call.
bool Extractor::fresh_copy_after_replay(TSNode ret, TSNode value) const {
  if (!ts::is(value, "call") || !ts::is(ts::field(value, "function"), "attribute") ||
      ts::text(ts::field(ts::field(value, "function"), "attribute"), src_) != "clone")
    return false;
  // ... of a buffer the graph's capture names (the static output), not of some other kept tensor.
  TSNode copied = ts::field(ts::field(value, "function"), "object");
  while (ts::is(copied, "subscript")) copied = ts::field(copied, "value");
  if (ts::is(copied, "attribute")) copied = ts::field(copied, "attribute");
  if (!ts::is(copied, "identifier") || !captured_mentions(std::string(ts::text(copied, src_)))) return false;
  for (TSNode child = ret, at = ts::parent(ret); !ts_node_is_null(at); child = at, at = ts::parent(at)) {
    if (ts::is(at, "function_definition") || ts::is(at, "lambda")) break;
    if (!ts::is(at, "block")) continue;
    for (uint32_t i = 0; i < ts::named_count(at); ++i) {
      TSNode statement = ts::named_child(at, i);
      if (ts_node_start_byte(statement) >= ts_node_start_byte(child)) break;
      const uint32_t begin = ts_node_start_byte(statement), end = ts_node_end_byte(statement);
      if (std::any_of(refreshed_replays_.begin(), refreshed_replays_.end(),
                      [&](uint32_t at_byte) { return at_byte >= begin && at_byte < end; }))
        return true;
    }
  }
  return false;
}

}  // namespace kgate::python::detail
