// Maintainability metrics counted on Clang's parse of one translation unit (docs/metrics.md): decisions
// and logical lines from the AST, `#if` branches and skipped regions from the preprocessor, Halstead's
// tokens, code lines and comments from Clang's lexer. The counting rules are the shared ones
// (analyzers/metrics/cpp_counting.h); the tree-sitter-cuda counter applies them where Clang made no facts.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class PPCallbacks;
class SourceManager;
}  // namespace clang

namespace kgate::cuda {

struct CollectorInput;

// What the preprocessor saw in the main file and the AST does not keep, by main-file offset: the
// conditional directives that decide (`#if`, `#ifdef`, `#elif`; the offset of their line) and the
// ranges it skipped (inactive branches, which have no AST).
struct PreprocessorRecord {
  std::vector<unsigned> deciding_directives;
  std::vector<std::pair<unsigned, unsigned>> skipped;
};

// The recorder to add to the preprocessor before it runs (CollectAction::CreateASTConsumer).
std::unique_ptr<clang::PPCallbacks> record_preprocessor(const clang::SourceManager& sm, PreprocessorRecord& out);

// Fills the metrics of the module(s) of `input` (each source load_inline joined into it, see
// Module::joined) and of every function in `definitions` (a definition and its index in facts.functions)
// whose body is written in the text. A function a macro writes entirely is not measured.
void measure_translation_unit(clang::ASTContext& context, const CollectorInput& input,
                              const std::vector<std::pair<const clang::FunctionDecl*, int>>& definitions);

}  // namespace kgate::cuda
