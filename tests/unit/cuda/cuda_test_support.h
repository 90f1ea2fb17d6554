// Helpers for the CUDA analyzer tests: run the extractor on a snippet and find facts by name.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/cuda/cuda_facts.h"

namespace kgate::cuda::testing {

struct Extracted {
  FactSet facts;
  std::vector<Diagnostic> diagnostics;
};

// A raw .cu file (module 0), extracted and linked.
inline Extracted extract_raw(const std::string& text, const CudaOptions& options = {},
                             const std::string& path = "/tmp/kgate-test.cu") {
  Extracted out;
  SourceFile host(path, text);
  extract_facts(host, out.facts, out.diagnostics, options);
  link(out.facts);
  return out;
}

// The same source through the tree-sitter engine, then (where it is built) through Clang's: `expect`
// gets the facts and the engine's name, so that both engines are held to one expectation.
template <class Expect>
void expect_from_both_engines(const std::string& text, Expect expect) {
  CudaOptions tree_sitter;
  tree_sitter.force_tree_sitter = true;
  expect(extract_raw(text, tree_sitter).facts, "tree-sitter");
#ifdef KGATE_HAVE_CLANG
  ASSERT_TRUE(clang_available());
  auto r = extract_raw(text);
  EXPECT_EQ(r.facts.engine, "clang");
  expect(r.facts, "clang");
#endif
}

inline const Call* find_call(const FactSet& f, const std::string& resolved, uint32_t line = 0) {
  for (const auto& c : f.calls)
    if (c.resolved == resolved && (line == 0 || c.span.line == line)) return &c;
  return nullptr;
}

inline const Function* find_function(const FactSet& f, const std::string& qualname) {
  for (const auto& fn : f.functions)
    if (fn.qualname == qualname) return &fn;
  return nullptr;
}

inline bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

inline bool has_rule(const std::vector<Diagnostic>& ds, const std::string& rule) {
  return std::any_of(ds.begin(), ds.end(), [&](const Diagnostic& d) { return d.rule == rule; });
}

// 1-based line of the first occurrence of `needle` in `text`.
inline uint32_t line_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

}  // namespace kgate::cuda::testing
