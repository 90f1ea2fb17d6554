// A finding of the pipeline itself, not of a rule: an input it could not analyse, a limit it met, an
// analyzer that failed, or the fold of a submission that found no single entry. Reported at line 1 of
// `path` by the "ingest" engine, with severity error.
#pragma once

#include <string>
#include <utility>

#include "analyzers/core/diagnostic.h"

namespace kgate {

inline Diagnostic pipeline_finding(std::string rule, std::string message, std::string path) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.severity = Severity::Error;
  d.message = std::move(message);
  d.path = std::move(path);
  d.span = {1, 1, 1, 1};
  d.engine = "ingest";
  return d;
}

}  // namespace kgate
