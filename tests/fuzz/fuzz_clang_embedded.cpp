// Fuzz target: the Clang LibTooling engine on the C++/CUDA strings of a .py submission (load_inline
// sources, parsed in CUDA mode against the shim headers), then the cross-language link; every fact of
// an embedded module must map back inside the host file. Built only where kgate_clang is.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/cuda/clang/clang_engine.h"
#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/python/python_facts.h"

namespace {

void check_span(const kgate::SourceFile& file, const kgate::Span& span) {
  // Line 0 never exists; one past the last line is where an unterminated last line ends.
  if (span.line < 1 || span.line > file.lines.line_count() + 1) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool registered = (kgate::cuda::clang_init(), kgate::cuda::clang_available());
  if (!registered) std::abort();  // without Clang this target would fuzz tree-sitter-cuda again
  const kgate::SourceFile file("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  kgate::FactSet facts;
  std::vector<kgate::Diagnostic> diagnostics;
  kgate::python::extract_facts(file, kgate::ingest::Limits{}, facts, diagnostics);
  kgate::cuda::CudaOptions options;  // the shims and their precompiled header, as kgate check uses them
  kgate::cuda::extract_facts(file, facts, diagnostics, options);
  kgate::cuda::link(facts);
  for (const kgate::Function& f : facts.functions) check_span(file, f.span);
  for (const kgate::Call& c : facts.calls) check_span(file, c.span);
  for (const kgate::Launch& l : facts.launches) check_span(file, l.span);
  for (const kgate::Diagnostic& d : diagnostics) check_span(file, d.span);
  return 0;
}
