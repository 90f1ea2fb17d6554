// Walks one Clang translation unit (an embedded source or a raw file) and appends its facts.
#pragma once

#include <string>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/cuda/clang/clang_metrics.h"

namespace clang {
class ASTContext;
class Decl;
}  // namespace clang

namespace kgate::cuda {

// An error Clang reported in the main file (used to recover names Clang dropped entirely, such
// as `unknown_ns::f(x);` parsed as a declaration).
struct ClangError {
  unsigned offset = 0;
  std::string message;
};

struct CollectorInput {
  const SourceFile* host = nullptr;
  FactSet* facts = nullptr;
  int module = 0;
  std::vector<clang::Decl*> top_level;  // main-file declarations, in order
  std::vector<ClangError> errors;
  std::vector<std::pair<unsigned, std::string>> includes;  // (offset of the directive, spelled name)
  PreprocessorRecord preprocessor;                         // for the metrics (clang_metrics.h)
};

// Appends the facts of the translation unit, with the maintainability metrics of its functions and module(s).
void collect_facts(clang::ASTContext& context, CollectorInput& input);

}  // namespace kgate::cuda
