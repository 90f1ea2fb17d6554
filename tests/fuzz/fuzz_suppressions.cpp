// Fuzz target: the suppression marker parser and apply_suppressions on findings at every line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/suppressions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const kgate::SourceFile file("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  const std::vector<kgate::Suppression> parsed = kgate::parse_suppressions(file);
  std::vector<kgate::Diagnostic> findings;
  for (const kgate::Suppression& s : parsed) {
    for (const std::string& rule : s.rules) {
      kgate::Diagnostic d;
      d.rule = rule;
      d.path = file.path;
      d.span = {s.target_line, 1, s.target_line, 2};
      findings.push_back(d);
    }
  }
  const auto known = [](std::string_view id) { return id.size() % 2 == 0; };
  const auto ran = [](std::string_view id) { return id.size() % 3 != 0; };
  (void)kgate::apply_suppressions(file, findings, known, ran);
  return 0;
}
