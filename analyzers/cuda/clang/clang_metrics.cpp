// The Clang counter of C++/CUDA metrics (clang_metrics.h): one walk over the main file's AST for
// decisions and logical lines, one raw lex of the main file for Halstead's tokens, lines and directives,
// and the preprocessor's record for what the AST lacks. The shared CppLedger applies the rules.
#include "analyzers/cuda/clang/clang_metrics.h"

#include <algorithm>
#include <optional>
#include <string>

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/IdentifierTable.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroArgs.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/PPCallbacks.h>

#include "analyzers/cuda/clang/clang_collector.h"
#include "analyzers/metrics/cpp_counting.h"

namespace kgate::cuda {
namespace {

using namespace clang;
using metrics::CppLedger;
using metrics::TokenRole;

constexpr std::string_view kCounter = "clang";

// The offset of the line holding `offset`: directives are keyed by their line, so that the preprocessor's
// callbacks (which name the directive's keyword) and the lexer (which sees its `#`) agree.
unsigned line_start(StringRef buffer, unsigned offset) {
  offset = std::min<unsigned>(offset, static_cast<unsigned>(buffer.size()));
  while (offset > 0 && buffer[offset - 1] != '\n') --offset;
  return offset;
}

class PreprocessorRecorder : public PPCallbacks {
 public:
  PreprocessorRecorder(const SourceManager& sm, PreprocessorRecord& out) : sm_(sm), out_(out) {}
  void If(SourceLocation loc, SourceRange, ConditionValueKind) override { deciding(loc); }
  void Ifdef(SourceLocation loc, const Token&, const MacroDefinition&) override { deciding(loc); }
  void Elif(SourceLocation loc, SourceRange, ConditionValueKind, SourceLocation) override { deciding(loc); }
  void SourceRangeSkipped(SourceRange range, SourceLocation) override {
    const auto [bf, b] = sm_.getDecomposedLoc(range.getBegin());
    const auto [ef, e] = sm_.getDecomposedLoc(range.getEnd());
    if (bf == sm_.getMainFileID() && ef == bf && e >= b) out_.skipped.emplace_back(b, e);
  }

 private:
  void deciding(SourceLocation loc) {
    if (!loc.isFileID()) return;
    const auto [file, offset] = sm_.getDecomposedLoc(loc);
    if (file == sm_.getMainFileID()) out_.deciding_directives.push_back(line_start(sm_.getBufferData(file), offset));
  }
  const SourceManager& sm_;
  PreprocessorRecord& out_;
};

void sort_unique(std::vector<unsigned>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// ---- places: where in the main file a construct is written ----

class Places {
 public:
  explicit Places(const SourceManager& sm) : sm_(sm), main_(sm.getMainFileID()) {}

  // Where a token is written: a macro argument where the macro is invoked with it; a token of a macro's
  // body is written in no function (nullopt), as lizard and people reading the code see it.
  std::optional<unsigned> written(SourceLocation loc) const {
    for (int guard = 0; loc.isMacroID() && guard < 64; ++guard) {
      if (!sm_.isMacroArgExpansion(loc)) return std::nullopt;
      loc = sm_.getImmediateSpellingLoc(loc);
    }
    return in_main(loc);
  }
  // Where a statement or declaration is: where it is written, or the macro invocation that wrote it
  // (everything one invocation writes is one place, as it is one line of the text).
  std::optional<unsigned> placed(SourceLocation loc) const {
    if (loc.isInvalid()) return std::nullopt;
    return in_main(sm_.getFileLoc(loc));
  }
  std::optional<unsigned> in_main(SourceLocation loc) const {
    if (loc.isInvalid() || loc.isMacroID()) return std::nullopt;
    const auto [file, offset] = sm_.getDecomposedLoc(loc);
    if (file != main_) return std::nullopt;
    return offset;
  }

 private:
  const SourceManager& sm_;
  FileID main_;
};

// ---- the AST: decisions and logical lines ----

class StatementCounter : public RecursiveASTVisitor<StatementCounter> {
 public:
  StatementCounter(const Places& places, std::vector<unsigned>& decisions, std::vector<unsigned>& logical_lines,
                   std::vector<unsigned>& not_decisions)
      : places_(places), decisions_(decisions), logical_lines_(logical_lines), not_decisions_(not_decisions) {}

  bool shouldVisitTemplateInstantiations() const { return false; }  // a template counts once, as written
  bool shouldVisitImplicitCode() const { return false; }
  bool shouldWalkTypesOfTypeLocs() const { return false; }

  // Decisions (lizard's set): if for while do case catch ?: && ||, each at its keyword or operator token
  // (a do-while loop at its `while`), so that the lexer's count of the same token (TokenCounter) is the
  // same decision.
  bool VisitIfStmt(IfStmt* s) { return decide(s->getIfLoc()); }
  bool VisitForStmt(ForStmt* s) { return decide(s->getForLoc()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt* s) { return decide(s->getForLoc()); }
  bool VisitWhileStmt(WhileStmt* s) { return decide(s->getWhileLoc()); }
  bool VisitDoStmt(DoStmt* s) { return decide(s->getWhileLoc()); }
  bool VisitCaseStmt(CaseStmt* s) { return decide(s->getKeywordLoc()); }
  bool VisitCXXCatchStmt(CXXCatchStmt* s) { return decide(s->getCatchLoc()); }
  bool VisitAbstractConditionalOperator(AbstractConditionalOperator* e) { return decide(e->getQuestionLoc()); }
  bool VisitBinaryOperator(BinaryOperator* e) {
    if (e->getOpcode() == BO_LAnd || e->getOpcode() == BO_LOr) decide(e->getOperatorLoc());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* e) {  // `a && b` on class types, or dependent ones
    if (e->getOperator() == OO_AmpAmp || e->getOperator() == OO_PipePipe) decide(e->getOperatorLoc());
    return true;
  }

  // `&&` tokens that decide nothing: an rvalue reference (`auto&& x`, `[](T&& t)`) and a label's address.
  bool VisitRValueReferenceTypeLoc(RValueReferenceTypeLoc tl) { return not_decision(tl.getSigilLoc()); }
  bool VisitAddrLabelExpr(AddrLabelExpr* e) { return not_decision(e->getAmpAmpLoc()); }

  // Logical lines: statements in statement position, and declarations outside function bodies.
  bool dataTraverseStmtPre(Stmt* s) {
    if (is_statement(s)) logical(s->getBeginLoc());
    parents_.push_back(s);
    return true;
  }
  bool dataTraverseStmtPost(Stmt*) {
    parents_.pop_back();
    return true;
  }
  bool VisitDecl(Decl* d) {
    if (!d->isImplicit() && is_declaration_line(d)) logical(d->getBeginLoc());
    return true;
  }

 private:
  bool decide(SourceLocation loc) {
    if (auto at = places_.written(loc)) decisions_.push_back(*at);
    return true;
  }
  bool not_decision(SourceLocation loc) {
    if (auto at = places_.written(loc)) not_decisions_.push_back(*at);
    return true;
  }
  void logical(SourceLocation loc) {
    if (auto at = places_.placed(loc)) logical_lines_.push_back(*at);
  }

  // A statement other than `{...}` counts where a statement stands: in a block, as the branch or body
  // of a control statement, or after a label. An expression counts there as an expression statement.
  bool is_statement(Stmt* s) const {
    if (isa<CompoundStmt>(s) || isa<AttributedStmt>(s) || isa<CXXCatchStmt>(s)) return false;
    const Stmt* parent = parents_.empty() ? nullptr : parents_.back();
    if (!parent) return !isa<Expr>(s);  // a function body's root, or a lambda's: compound anyway
    if (const auto* ds = dyn_cast<DeclStmt>(s)) {
      // `struct S {...};` in a body declares a type, not a line of work; a range-for's variable is
      // part of its loop.
      if (const auto* rf = dyn_cast<CXXForRangeStmt>(parent); rf && rf->getLoopVarStmt() == s) return false;
      return !std::all_of(ds->decl_begin(), ds->decl_end(), [](const Decl* d) { return isa<TagDecl>(d); });
    }
    if (isa<CompoundStmt>(parent) || isa<AttributedStmt>(parent) || isa<LabelStmt>(parent)) return true;
    if (const auto* c = dyn_cast<SwitchCase>(parent)) return c->getSubStmt() == s;
    if (const auto* i = dyn_cast<IfStmt>(parent)) return i->getThen() == s || i->getElse() == s;
    if (const auto* f = dyn_cast<ForStmt>(parent)) return f->getBody() == s || (f->getInit() == s && isa<DeclStmt>(s));
    if (const auto* w = dyn_cast<WhileStmt>(parent)) return w->getBody() == s;
    if (const auto* d = dyn_cast<DoStmt>(parent)) return d->getBody() == s;
    if (const auto* r = dyn_cast<CXXForRangeStmt>(parent)) return r->getBody() == s;
    if (const auto* sw = dyn_cast<SwitchStmt>(parent)) return sw->getBody() == s;
    return false;
  }

  // Declarations outside function bodies that are a logical line: functions, variables, members,
  // typedefs and aliases, using-declarations and -directives, static_assert. Namespaces, linkage
  // blocks, template headers, class and enum definitions themselves, enumerators and parameters are not.
  static bool is_declaration_line(const Decl* d) {
    const DeclContext* dc = d->getDeclContext();
    if (dc && (dc->isFunctionOrMethod() || isa<BlockDecl>(dc))) return false;  // counted as statements
    if (isa<ParmVarDecl>(d) || isa<NonTypeTemplateParmDecl>(d)) return false;
    return isa<FunctionDecl>(d) || isa<VarDecl>(d) || isa<FieldDecl>(d) || isa<TypedefNameDecl>(d) ||
           isa<UsingDecl>(d) || isa<UsingDirectiveDecl>(d) || isa<StaticAssertDecl>(d);
  }

  const Places& places_;
  std::vector<unsigned>& decisions_;
  std::vector<unsigned>& logical_lines_;
  std::vector<unsigned>& not_decisions_;
  std::vector<Stmt*> parents_;
};

// ---- the lexer: tokens, comments, directives, and decisions where there is no AST ----

class TokenCounter {
 public:
  TokenCounter(const SourceManager& sm, const LangOptions& lang, IdentifierTable& idents, CppLedger& ledger,
               const PreprocessorRecord& pp, std::vector<unsigned>& decisions, std::vector<unsigned>& logical_lines,
               const std::vector<unsigned>& not_decisions)
      : sm_(sm),
        lang_(lang),
        idents_(idents),
        ledger_(ledger),
        pp_(pp),
        decisions_(decisions),
        logical_lines_(logical_lines),
        not_decisions_(not_decisions),
        main_(sm.getMainFileID()),
        buffer_(sm.getBufferData(main_)) {}

  void run() {
    Lexer lexer(sm_.getLocForStartOfFile(main_), lang_, buffer_.begin(), buffer_.begin(), buffer_.end());
    lexer.SetCommentRetentionState(true);
    Token tok;
    lex(lexer, tok);
    while (tok.isNot(tok::eof)) {
      if (tok.is(tok::hash) && tok.isAtStartOfLine()) {
        directive(lexer, tok);  // leaves `tok` at the first token after the directive
        continue;
      }
      add(tok);
      decide_by_kind(tok);
      lex(lexer, tok);
    }
  }

 private:
  void lex(Lexer& lexer, Token& tok) {
    lexer.LexFromRawLexer(tok);
    if (tok.is(tok::raw_identifier)) {
      // Keywords by Clang's identifier table for this language (`and` is `&&` there, too).
      IdentifierInfo& ii = idents_.get(tok.getRawIdentifier());
      tok.setIdentifierInfo(&ii);
      tok.setKind(ii.getTokenID());
    }
  }

  unsigned offset(const Token& tok) const { return sm_.getFileOffset(tok.getLocation()); }
  StringRef spelling(const Token& tok) const { return buffer_.substr(offset(tok), tok.getLength()); }
  unsigned row(unsigned at) const { return sm_.getLineNumber(main_, at) - 1; }

  bool in_skipped(unsigned at) const {
    return std::any_of(pp_.skipped.begin(), pp_.skipped.end(),
                       [&](const auto& r) { return at >= r.first && at < r.second; });
  }

  TokenRole role(const Token& tok) const {
    switch (tok.getKind()) {
      case tok::r_paren:
      case tok::r_square:
      case tok::r_brace:
        return TokenRole::ClosingBracket;
      case tok::identifier:
        return metrics::is_cuda_keyword(tok.getIdentifierInfo()->getName()) ? TokenRole::Operator : TokenRole::Operand;
      case tok::kw_true:
      case tok::kw_false:
      case tok::kw_nullptr:
      case tok::kw_this:
      case tok::kw___null:
      case tok::kw___func__:
      case tok::kw___FUNCTION__:
      case tok::kw___PRETTY_FUNCTION__:
        return TokenRole::Operand;
      default:
        return tok::isLiteral(tok.getKind()) ? TokenRole::Operand : TokenRole::Operator;
    }
  }

  void add(const Token& tok) { add(tok, role(tok)); }
  void add(const Token& tok, TokenRole role) {
    const unsigned at = offset(tok);
    const unsigned end = at + tok.getLength();
    if (tok.is(tok::comment)) {
      ledger_.comment(at, row(at), row(end > at ? end - 1 : at));
      return;
    }
    ledger_.token(at, spelling(tok), role, row(at), row(end > at ? end - 1 : at));
  }
  // One token made of several (a directive's `#` and name, a header name, a macro's replacement text).
  void add_span(unsigned at, unsigned end, std::string_view text, TokenRole role) {
    ledger_.token(at, text, role, row(at), row(end > at ? end - 1 : at));
  }

  // Decisions by token kind, as lizard counts them (`while` for a do-while loop, as the AST counts it),
  // beside the AST's: where the preprocessor skipped a branch there is no AST, and where Clang rejects
  // an expression (`x && undeclared`) its AST drops the operator. The AST's own decisions sit on the
  // same tokens, so the union counts each once; `&&` that the AST knows as an rvalue reference is none.
  void decide_by_kind(const Token& tok) {
    if (tok.is(tok::ampamp) && std::binary_search(not_decisions_.begin(), not_decisions_.end(), offset(tok))) return;
    switch (tok.getKind()) {
      case tok::kw_if:
      case tok::kw_for:
      case tok::kw_while:
      case tok::kw_case:
      case tok::kw_catch:
      case tok::ampamp:
      case tok::pipepipe:
      case tok::question:
        decisions_.push_back(offset(tok));
        break;
      default:
        break;
    }
  }

  // A directive: `#` and its name are one operator (`#include`); a header name is one operand; a macro's
  // replacement text, and the arguments of directives other than conditionals, are one operand each
  // (text until expanded); the conditions of `#if` and `#elif` are tokens, `defined` an operator.
  void directive(Lexer& lexer, Token& tok) {
    const Token hash = tok;
    const unsigned at = offset(hash);
    lex(lexer, tok);
    if (tok.is(tok::eof) || tok.isAtStartOfLine() || !tok.getIdentifierInfo()) {
      add(hash, TokenRole::Operator);  // a null directive: a lone `#`
      return;
    }
    const std::string name = tok.getIdentifierInfo()->getName().str();
    const unsigned name_end = offset(tok) + tok.getLength();
    std::string_view text(buffer_.data() + at, name_end - at);
    if (text.size() != name.size() + 1) text = ledger_.own("#" + name);  // spelled `# define`
    add_span(at, name_end, text, TokenRole::Operator);
    // The preprocessor reports the conditionals it evaluates; inside a skipped branch only the lexer sees them.
    if (metrics::is_deciding_directive(name) && in_skipped(at)) decisions_.push_back(line_start(buffer_, at));
    if (metrics::is_logical_directive(name)) logical_lines_.push_back(at);
    lex(lexer, tok);
    if (name == "if" || name == "elif" || name == "ifdef" || name == "ifndef" || name == "elifdef" ||
        name == "elifndef") {
      for (; tok.isNot(tok::eof) && !tok.isAtStartOfLine(); lex(lexer, tok)) {
        const bool defined = tok.getIdentifierInfo() && tok.getIdentifierInfo()->getName() == "defined";
        add(tok, defined ? TokenRole::Operator : role(tok));
      }
      return;
    }
    if ((name == "include" || name == "include_next" || name == "import") && tok.is(tok::less) &&
        !tok.isAtStartOfLine()) {
      const unsigned begin = offset(tok);
      unsigned end = begin + tok.getLength();
      for (lex(lexer, tok); tok.isNot(tok::eof) && !tok.isAtStartOfLine(); lex(lexer, tok)) {
        if (tok.is(tok::comment)) {
          add(tok);
          continue;
        }
        end = offset(tok) + tok.getLength();
        if (tok.is(tok::greater)) {
          lex(lexer, tok);
          break;
        }
      }
      add_span(begin, end, std::string_view(buffer_.data() + begin, end - begin), TokenRole::Operand);
    }
    if (name == "define" && tok.isNot(tok::eof) && !tok.isAtStartOfLine()) {
      add(tok, TokenRole::Operand);  // the macro's name
      lex(lexer, tok);
      if (tok.is(tok::l_paren) && !tok.hasLeadingSpace() && !tok.isAtStartOfLine()) {
        for (; tok.isNot(tok::eof) && !tok.isAtStartOfLine(); lex(lexer, tok)) {
          add(tok);
          if (tok.is(tok::r_paren)) {
            lex(lexer, tok);
            break;
          }
        }
      }
    }
    // The rest of the directive's line(s): one operand, comments aside.
    std::optional<unsigned> begin;
    unsigned end = 0;
    for (; tok.isNot(tok::eof) && !tok.isAtStartOfLine(); lex(lexer, tok)) {
      if (tok.is(tok::comment)) {
        add(tok);
        continue;
      }
      if (!begin) begin = offset(tok);
      end = offset(tok) + tok.getLength();
    }
    if (begin) add_span(*begin, end, std::string_view(buffer_.data() + *begin, end - *begin), TokenRole::Operand);
  }

  const SourceManager& sm_;
  const LangOptions& lang_;
  IdentifierTable& idents_;
  CppLedger& ledger_;
  const PreprocessorRecord& pp_;
  std::vector<unsigned>& decisions_;
  std::vector<unsigned>& logical_lines_;
  const std::vector<unsigned>& not_decisions_;  // sorted
  FileID main_;
  StringRef buffer_;
};

}  // namespace

std::unique_ptr<PPCallbacks> record_preprocessor(const SourceManager& sm, PreprocessorRecord& out) {
  return std::make_unique<PreprocessorRecorder>(sm, out);
}

void measure_translation_unit(ASTContext& context, const CollectorInput& input,
                              const std::vector<std::pair<const FunctionDecl*, int>>& definitions) {
  const SourceManager& sm = context.getSourceManager();
  FactSet& facts = *input.facts;
  const Places places(sm);

  std::vector<unsigned> decisions = input.preprocessor.deciding_directives;
  std::vector<unsigned> logical_lines;
  std::vector<unsigned> not_decisions;
  StatementCounter statements(places, decisions, logical_lines, not_decisions);
  for (Decl* d : input.top_level) statements.TraverseDecl(d);
  sort_unique(not_decisions);

  CppLedger ledger;
  TokenCounter(sm, context.getLangOpts(), context.Idents, ledger, input.preprocessor, decisions, logical_lines,
               not_decisions)
      .run();
  // One construct is one decision or logical line however many AST nodes a macro made of it.
  sort_unique(decisions);
  sort_unique(logical_lines);
  for (unsigned at : decisions) ledger.decision(at);
  for (unsigned at : logical_lines) ledger.logical_line(at);

  for (const auto& [fd, index] : definitions) {
    // Members the compiler writes (an implicit or `= default` constructor or assignment) have no
    // body in the text: nothing to measure, as lizard and the tree-sitter counter see it.
    if (fd->isImplicit() || fd->isDefaulted()) continue;
    const Stmt* body = fd->getBody();
    if (!body || index < 0 || index >= static_cast<int>(facts.functions.size())) continue;
    const auto open = places.in_main(body->getBeginLoc());  // `{` written in the text, not by a macro
    const auto close = places.in_main(body->getEndLoc());
    const auto begin = places.placed(fd->getBeginLoc());
    if (!open || !close || !begin || *begin > *open) continue;
    ledger.measure(*begin, *close + 1, facts.functions[index].metrics, kCounter);
  }

  const Module& mod = facts.modules[input.module];
  const auto size = static_cast<uint32_t>(mod.text.size());
  if (mod.joined.empty()) {
    ledger.measure(0, size, facts.modules[input.module].metrics, kCounter);
    return;
  }
  for (size_t k = 0; k < mod.joined.size(); ++k) {
    const auto [module, begin] = mod.joined[k];
    // Each joined text ends before the newline that joins it to the next.
    const uint32_t end = k + 1 < mod.joined.size() ? mod.joined[k + 1].second - 1 : size;
    if (module >= 0 && module < static_cast<int>(facts.modules.size()) && begin <= end)
      ledger.measure(begin, end, facts.modules[module].metrics, kCounter);
  }
}

}  // namespace kgate::cuda
