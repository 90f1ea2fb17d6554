// Fuzz target: Python facts with the C++/CUDA strings pulled out of load_inline calls and their source maps.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/python/python_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const kgate::SourceFile file("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  kgate::FactSet facts;
  std::vector<kgate::Diagnostic> diagnostics;
  kgate::python::extract_facts(file, kgate::ingest::Limits{}, facts, diagnostics);
  // Every decoded byte of an embedded source must map back inside the host file.
  for (const kgate::Module& module : facts.modules) {
    if (module.map.empty()) continue;
    for (size_t i = 0; i <= module.text.size(); ++i) {
      const uint32_t host = module.map.host_offset(static_cast<uint32_t>(i));
      if (host > file.text.size()) std::abort();
      (void)file.span(host, host);
    }
  }
  return 0;
}
