// Turns a Clang AST into KernelGate facts: functions, resolved calls (through macros, using,
// namespace aliases, templates, `##`), launches with their validity, static state, casts, returns.
#include "analyzers/cuda/clang/clang_collector.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "analyzers/cuda/cuda_common.h"

namespace kgate::cuda {
namespace {

using namespace clang;

// Qualified name without template arguments, anonymous/inline namespaces or extern "C" blocks:
// "at::Tensor::to", "std::vector::push_back", "cublasSgemm_v2".
std::string qualified_name(const NamedDecl* d) {
  if (!d) return {};
  std::vector<std::string> parts;
  if (const auto* ctor = dyn_cast<CXXConstructorDecl>(d)) {
    parts.push_back(ctor->getParent()->getNameAsString());
    d = ctor->getParent();
  } else {
    parts.push_back(d->getNameAsString());
  }
  for (const DeclContext* dc = d->getDeclContext(); dc; dc = dc->getParent()) {
    if (const auto* ns = dyn_cast<NamespaceDecl>(dc)) {
      if (ns->isAnonymousNamespace() || ns->isInline()) continue;
      parts.push_back(ns->getNameAsString());
    } else if (const auto* rd = dyn_cast<RecordDecl>(dc)) {
      if (rd->getName().empty()) continue;
      parts.push_back(rd->getNameAsString());
    } else if (isa<FunctionDecl>(dc)) {
      break;  // local class: its name is enough
    }
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += "::";
    out += *it;
  }
  return out;
}

std::string type_name(QualType t) {
  if (t.isNull()) return {};
  t = t.getNonReferenceType().getUnqualifiedType();
  if (const auto* rd = t->getAsRecordDecl()) return qualified_name(rd);
  if (const auto* tt = t->getAs<TypedefType>()) return qualified_name(tt->getDecl());
  if (const auto* et = t->getAs<EnumType>()) return qualified_name(et->getDecl());
  return t.getAsString();
}

bool is_tensor_record(QualType t) {
  if (t.isNull()) return false;
  t = t.getNonReferenceType();
  if (const auto* rd = t->getAsCXXRecordDecl()) return qualified_name(rd) == "at::Tensor";
  return false;
}

std::string trim_spaces(std::string s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out += c;
  return out;
}

enum class LoopKind { None, Loop };

class Collector : public RecursiveASTVisitor<Collector> {
 public:
  Collector(ASTContext& ctx, CollectorInput& in)
      : ctx_(ctx), sm_(ctx.getSourceManager()), in_(in), facts_(*in.facts), mod_(facts_.modules[in.module]),
        main_(sm_.getMainFileID()) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }
  bool shouldWalkTypesOfTypeLocs() const { return false; }

  void run() {
    for (Decl* d : in_.top_level) TraverseDecl(d);
    finish();
  }

  // Every function definition recorded, with its index in facts.functions (for the metrics).
  const std::vector<std::pair<const FunctionDecl*, int>>& definitions() const { return definitions_; }

  // ---- declarations ----

  bool TraverseDecl(Decl* d) {
    if (!d) return true;
    auto* fd = dyn_cast<FunctionDecl>(d);
    if (fd && fd->doesThisDeclarationHaveABody() && in_main(fd->getLocation()) && !is_lambda_operator(fd)) {
      int idx = add_function(fd);
      fn_stack_.push_back(idx);
      FunctionState saved = std::move(state_);
      state_ = FunctionState{};
      state_.decl = fd;
      bool r = RecursiveASTVisitor::TraverseDecl(d);
      finish_function(fd, idx);
      state_ = std::move(saved);
      fn_stack_.pop_back();
      return r;
    }
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitVarDecl(VarDecl* vd) {
    if (isa<ParmVarDecl>(vd) || !in_main(vd->getLocation())) return true;
    if (vd->hasGlobalStorage() && !vd->getType().isConstQualified()) add_global(vd);
    if (current_function() >= 0 && vd->hasLocalStorage()) {
      if (const Expr* init = vd->getInit()) {
        note_local_origin(vd, init);
        note_dependencies(vd, init);
      }
    }
    return true;
  }

  // ---- statements: a parent stack for guards ----

  bool dataTraverseStmtPre(Stmt* s) {
    stack_.push_back(s);
    return true;
  }
  bool dataTraverseStmtPost(Stmt*) {
    stack_.pop_back();
    return true;
  }

  bool VisitCallExpr(CallExpr* e) {
    if (auto* k = dyn_cast<CUDAKernelCallExpr>(e)) {
      add_chevron_launch(k);
      return true;
    }
    if (const FunctionDecl* fd = e->getDirectCallee()) {
      std::string n = fd->getNameAsString();
      if (n == "__cudaPushCallConfiguration" || n == "cudaConfigureCall") return true;
    }
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e)) {
      note_operator_write(op);
      const FunctionDecl* fd = op->getDirectCallee();
      std::string q = fd ? qualified_name(fd) : "";
      note_operator_cast(op, fd);
      if (q.rfind("at::", 0) != 0 && q.rfind("torch::", 0) != 0) return true;
    }
    add_call(e, e->getCallee());
    return true;
  }

  bool VisitRecoveryExpr(RecoveryExpr* e) {
    // `undeclared(x, 3)` keeps no CallExpr: the recovery node holds the lookup and the arguments.
    auto subs = e->subExpressions();
    if (subs.empty()) return true;
    const Expr* first = subs.front()->IgnoreParenImpCasts();
    if (isa<UnresolvedLookupExpr>(first) && text_after(e->getSourceRange(), first).find('(') == 0) add_call(e, first);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr* e) {
    const CXXRecordDecl* rd = e->getConstructor() ? e->getConstructor()->getParent() : nullptr;
    if (!rd || !in_main(e->getBeginLoc())) return true;
    std::string cls = qualified_name(rd);
    if (is_recorded_construction(cls)) add_construction(e, cls);
    if (auto dt = low_precision_dtype(cls); dt && e->getNumArgs() >= 1) {
      QualType at = e->getArg(0)->IgnoreParenImpCasts()->getType();
      if (!at.isNull() && (at->isFloatingType() || at->isIntegerType()) && !at->isBooleanType())
        add_cast(*dt, "type", e->getSourceRange());
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator* op) {
    if (op->isAssignmentOp()) note_write(op->getLHS(), op->getRHS());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) note_write(op->getSubExpr(), nullptr);
    return true;
  }

  bool VisitReturnStmt(ReturnStmt* r) {
    if (current_function() >= 0 && !in_lambda() && in_main(r->getBeginLoc())) state_.returns.push_back({r, guard()});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (const auto* ec = dyn_cast<EnumConstantDecl>(e->getDecl())) {
      std::string n = ec->getNameAsString();
      if (n.rfind("cuda", 0) == 0 || n.rfind("CU_", 0) == 0 || n.rfind("CUBLAS", 0) == 0 || n.rfind("CUDNN", 0) == 0)
        add_name(n, e->getSourceRange());
    }
    if (const auto* vd = dyn_cast<VarDecl>(e->getDecl()); vd && current_function() >= 0) {
      if (in_launch_args_ > 0) state_.written_vars.insert(vd->getCanonicalDecl());
    }
    return true;
  }

  bool VisitMemberExpr(MemberExpr* e) {
    if (const auto* fd = dyn_cast<FieldDecl>(e->getMemberDecl())) {
      std::string n = fd->getNameAsString();
      if (n == "accessPolicyWindow" || n == "hitProp" || n == "missProp" || n == "hitRatio")
        add_name(qualified_name(fd), e->getSourceRange());
    }
    return true;
  }

  bool VisitStringLiteral(StringLiteral* s) {
    if (!in_main(s->getBeginLoc()) || s->getByteLength() > 300 || s->getCharByteWidth() != 1) return true;
    StringConst c;
    c.value = s->getString().str();
    c.function = current_function();
    c.span = span_of(s->getSourceRange());
    facts_.strings.push_back(std::move(c));
    return true;
  }

  // Launch arguments: a variable named inside them was handed to a kernel (it is "written").
  bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr* e, DataRecursionQueue* = nullptr) {
    if (!WalkUpFromCUDAKernelCallExpr(e)) return false;
    ++in_launch_args_;
    for (Stmt* child : e->children()) TraverseStmt(child);
    --in_launch_args_;
    return true;
  }

 private:
  struct PendingReturn {
    ReturnStmt* stmt;
    Guard guard;
  };
  struct FunctionState {
    const FunctionDecl* decl = nullptr;
    std::map<const VarDecl*, std::vector<std::string>> origins;
    std::set<const VarDecl*> written_vars;
    std::map<const VarDecl*, std::set<const VarDecl*>> depends_on;  // a local's value names these
    std::vector<PendingReturn> returns;
  };

  ASTContext& ctx_;
  SourceManager& sm_;
  CollectorInput& in_;
  FactSet& facts_;
  const Module& mod_;
  FileID main_;
  std::vector<Stmt*> stack_;
  std::vector<int> fn_stack_;
  FunctionState state_;
  int in_launch_args_ = 0;
  std::map<const FunctionDecl*, int> function_index_;      // canonical decl -> facts index
  std::vector<std::pair<int, const FunctionDecl*>> pending_launch_kernels_;
  std::map<const VarDecl*, int> global_index_;
  std::set<const VarDecl*> mutated_globals_;
  std::vector<std::pair<unsigned, unsigned>> callee_ranges_;  // main-file offsets of recorded callees
  std::vector<std::tuple<unsigned, unsigned, int>> function_ranges_;
  std::vector<std::pair<const FunctionDecl*, int>> definitions_;

  int current_function() const { return fn_stack_.empty() ? -1 : fn_stack_.back(); }

  static bool is_lambda_operator(const FunctionDecl* fd) {
    const auto* md = dyn_cast<CXXMethodDecl>(fd);
    return md && md->getParent() && md->getParent()->isLambda();
  }

  // ---- locations ----

  bool in_main(SourceLocation loc) const {
    if (loc.isInvalid()) return false;
    return sm_.getFileID(sm_.getExpansionLoc(loc)) == main_;
  }

  // Main-file byte range of a source range (macro ranges widen to the whole invocation).
  std::optional<std::pair<unsigned, unsigned>> offsets(SourceRange r) const {
    if (r.isInvalid()) return std::nullopt;
    // Code written inside a macro argument (AT_DISPATCH_*'s lambda) keeps its own place; code a
    // macro body produced is placed at the macro invocation.
    CharSourceRange cr = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
    if (cr.isInvalid()) {
      cr = sm_.getExpansionRange(r);
      if (cr.isTokenRange()) cr = CharSourceRange::getCharRange(cr.getBegin(), Lexer::getLocForEndOfToken(cr.getEnd(), 0, sm_, ctx_.getLangOpts()));
    }
    SourceLocation b = cr.getBegin();
    SourceLocation e = cr.getEnd();
    if (cr.isTokenRange()) e = Lexer::getLocForEndOfToken(e, 0, sm_, ctx_.getLangOpts());
    auto [bf, bo] = sm_.getDecomposedLoc(b);
    auto [ef, eo] = sm_.getDecomposedLoc(e);
    if (bf != main_) return std::nullopt;
    if (ef != main_ || eo < bo) eo = bo;
    return std::make_pair(bo, eo);
  }

  Span span_of(SourceRange r) const {
    auto o = offsets(r);
    if (!o) return {};
    return host_span(*in_.host, mod_, o->first, o->second);
  }

  std::string text_of(SourceRange r) const {
    auto o = offsets(r);
    if (!o) return {};
    return mod_.text.substr(o->first, o->second - o->first);
  }

  // The text of `whole` after sub-expression `sub` (to see whether a '(' follows a name).
  std::string text_after(SourceRange whole, const Expr* sub) const {
    auto w = offsets(whole);
    auto s = offsets(sub->getSourceRange());
    if (!w || !s || s->second > w->second) return {};
    std::string t = mod_.text.substr(s->second, w->second - s->second);
    size_t p = t.find_first_not_of(" \t\r\n");
    return p == std::string::npos ? std::string() : t.substr(p);
  }

  // ---- guards ----

  std::optional<bool> fold_bool(const Expr* e) const {
    if (!e || e->isValueDependent() || e->isTypeDependent() || e->containsErrors()) return std::nullopt;
    bool value = false;
    if (e->EvaluateAsBooleanCondition(value, ctx_)) return value;
    return std::nullopt;
  }

  std::optional<int64_t> fold_int(const Expr* e) const {
    if (!e || e->isValueDependent() || e->isTypeDependent() || e->containsErrors()) return std::nullopt;
    Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_)) return r.Val.getInt().getExtValue();
    return std::nullopt;
  }

  static bool is_shape_call(const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) {
      if (const auto* md = mc->getMethodDecl()) {
        std::string n = md->getNameAsString();
        return n == "size" || n == "numel" || n == "dim" || n == "stride" || n == "ndimension" || n == "nbytes";
      }
    }
    if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getNumArgs() > 0)
      return is_shape_call(oc->getArg(0));
    return false;
  }

  bool mentions_shape(const Stmt* s) const {
    if (!s) return false;
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(s)) {
      if (const auto* md = mc->getMethodDecl()) {
        std::string n = md->getNameAsString();
        if (n == "size" || n == "sizes" || n == "numel" || n == "dim" || n == "scalar_type" || n == "dtype" ||
            n == "device" || n == "is_cuda" || n == "is_contiguous" || n == "stride")
          return true;
      }
    }
    for (const Stmt* c : s->children())
      if (mentions_shape(c)) return true;
    return false;
  }

  // A comparison of a shape with a negative bound (`x.size(0) < 0`) can never hold.
  bool impossible_shape(const Expr* cond) const {
    cond = cond->IgnoreParenImpCasts();
    const auto* bo = dyn_cast<BinaryOperator>(cond);
    if (!bo) return false;
    if (bo->getOpcode() == BO_LAnd) return impossible_shape(bo->getLHS()) || impossible_shape(bo->getRHS());
    if (!bo->isComparisonOp()) return false;
    const Expr* l = bo->getLHS();
    const Expr* r = bo->getRHS();
    BinaryOperatorKind op = bo->getOpcode();
    if (!is_shape_call(l) && is_shape_call(r)) {
      std::swap(l, r);
      op = op == BO_LT ? BO_GT : op == BO_GT ? BO_LT : op == BO_LE ? BO_GE : op == BO_GE ? BO_LE : op;
    }
    if (!is_shape_call(l)) return false;
    auto c = fold_int(r);
    if (!c) return false;
    return (op == BO_LT && *c <= 0) || (op == BO_LE && *c < 0) || (op == BO_EQ && *c < 0);
  }

  // Whether statement `s` always leaves the block (return, throw, exit()).
  bool terminates(const Stmt* s) const {
    if (!s) return false;
    if (isa<ReturnStmt>(s) || isa<CXXThrowExpr>(s)) return true;
    if (const auto* c = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt* x : c->body())
        if (terminates(x)) return true;
      return false;
    }
    if (const auto* i = dyn_cast<IfStmt>(s)) {
      auto v = fold_bool(i->getCond());
      if (v && *v) return terminates(i->getThen());
      if (v && !*v) return terminates(i->getElse());
      return i->getElse() && terminates(i->getThen()) && terminates(i->getElse());
    }
    if (const auto* e = dyn_cast<Expr>(s)) {
      if (const auto* call = dyn_cast<CallExpr>(e->IgnoreParenImpCasts()))
        if (const auto* fd = call->getDirectCallee()) {
          std::string n = fd->getNameAsString();
          return n == "exit" || n == "abort" || n == "_exit" || n == "quick_exit";
        }
    }
    return false;
  }

  Guard guard() const {
    Guard g;
    for (size_t i = stack_.size(); i-- > 1;) {
      const Stmt* child = stack_[i];
      const Stmt* parent = stack_[i - 1];
      if (const auto* f = dyn_cast<IfStmt>(parent)) {
        if (child == f->getThen() || child == f->getElse()) {
          bool then = child == f->getThen();
          if (auto v = fold_bool(f->getCond()); v && *v != then) g.constant_false = true;
          if (then && impossible_shape(f->getCond())) g.impossible_shape = true;
          if (mentions_shape(f->getCond())) g.shape_test = true;
        }
      } else if (const auto* w = dyn_cast<WhileStmt>(parent)) {
        if (child == w->getBody())
          if (auto v = fold_bool(w->getCond()); v && !*v) g.constant_false = true;
      } else if (const auto* fs = dyn_cast<ForStmt>(parent)) {
        if (child == fs->getBody() && fs->getCond())
          if (auto v = fold_bool(fs->getCond()); v && !*v) g.constant_false = true;
      } else if (const auto* co = dyn_cast<ConditionalOperator>(parent)) {
        if (child == co->getTrueExpr() || child == co->getFalseExpr())
          if (auto v = fold_bool(co->getCond()); v && *v != (child == co->getTrueExpr())) g.constant_false = true;
      } else if (const auto* bo = dyn_cast<BinaryOperator>(parent)) {
        if (bo->isLogicalOp() && child == bo->getRHS())
          if (auto v = fold_bool(bo->getLHS()); v && *v == (bo->getOpcode() == BO_LOr)) g.constant_false = true;
      } else if (const auto* cs = dyn_cast<CompoundStmt>(parent)) {
        for (const Stmt* s : cs->body()) {
          if (s == child) break;
          if (terminates(s)) g.after_return = true;
        }
      } else if (const auto* t = dyn_cast<CXXTryStmt>(parent)) {
        if (child == t->getTryBlock()) g.in_try = true;
      } else if (isa<CXXCatchStmt>(parent)) {
        g.in_except = true;
      }
    }
    return g;
  }

  bool in_loop() const {
    for (size_t i = stack_.size(); i-- > 0;) {
      const Stmt* s = stack_[i];
      if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) return true;
    }
    return false;
  }

  bool in_lambda() const {
    return std::any_of(stack_.begin(), stack_.end(), [](const Stmt* s) { return isa<LambdaExpr>(s); });
  }

  // ---- functions ----

  int add_function(const FunctionDecl* fd) {
    Function f;
    f.name = fd->getNameAsString();
    f.qualname = qualified_name(fd);
    if (const auto* md = dyn_cast<CXXMethodDecl>(fd)) f.class_name = qualified_name(md->getParent());
    if (fd->hasAttr<CUDAGlobalAttr>()) f.kind = FunctionKind::CudaGlobal;
    else if (fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>()) f.kind = FunctionKind::CudaDevice;
    else f.kind = FunctionKind::Host;
    bool tensor_param = false;
    for (const ParmVarDecl* p : fd->parameters()) {
      f.params.push_back(p->getNameAsString());
      if (is_tensor_record(p->getType())) tensor_param = true;
    }
    if (tensor_param && f.kind == FunctionKind::Host) f.decorators.push_back("tensor-entry");
    if (fd->getDescribedFunctionTemplate() || fd->isTemplated()) f.decorators.push_back("template");
    f.module = in_.module;
    f.parent = current_function();
    f.span = span_of(SourceRange(fd->getLocation(), fd->getLocation()));
    int idx = static_cast<int>(facts_.functions.size());
    facts_.functions.push_back(std::move(f));
    function_index_[fd->getCanonicalDecl()] = idx;
    definitions_.emplace_back(fd, idx);
    if (auto o = offsets(fd->getSourceRange())) function_ranges_.emplace_back(o->first, o->second, idx);
    return idx;
  }

  void note_dependencies(const VarDecl* vd, const Stmt* s) {
    if (!s) return;
    if (const auto* dr = dyn_cast<DeclRefExpr>(s))
      if (const auto* w = dyn_cast<VarDecl>(dr->getDecl())) state_.depends_on[vd->getCanonicalDecl()].insert(w->getCanonicalDecl());
    for (const Stmt* c : s->children()) note_dependencies(vd, c);
  }

  // A buffer is written when anything derived from it (`float* p = out.data_ptr<float>()`) is.
  void propagate_written() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (const auto& [v, deps] : state_.depends_on) {
        if (!state_.written_vars.count(v)) continue;
        for (const VarDecl* d : deps)
          if (state_.written_vars.insert(d).second) changed = true;
      }
    }
  }

  void finish_function(const FunctionDecl* fd, int idx) {
    propagate_written();
    if (facts_.functions[idx].kind == FunctionKind::CudaGlobal && !writes_through_parameter(fd))
      facts_.functions[idx].decorators.push_back("no-pointer-write");
    for (const auto& pr : state_.returns) add_return(pr, idx);
  }

  // ---- kernel write analysis ----

  // The declaration an lvalue or pointer expression is rooted in (`out[i]`, `*(p + 1)`, `s.ptr[i]`).
  static const ValueDecl* root_decl(const Expr* e) {
    for (int depth = 0; e && depth < 64; ++depth) {
      e = e->IgnoreParenCasts();
      if (const auto* dr = dyn_cast<DeclRefExpr>(e)) return dr->getDecl();
      if (const auto* as = dyn_cast<ArraySubscriptExpr>(e)) {
        e = as->getBase();
        continue;
      }
      if (const auto* u = dyn_cast<UnaryOperator>(e)) {
        e = u->getSubExpr();
        continue;
      }
      if (const auto* m = dyn_cast<MemberExpr>(e)) {
        e = m->getBase();
        continue;
      }
      if (const auto* dm = dyn_cast<CXXDependentScopeMemberExpr>(e)) {
        if (dm->isImplicitAccess()) return nullptr;
        e = dm->getBase();
        continue;
      }
      if (const auto* b = dyn_cast<BinaryOperator>(e)) {
        if (b->getLHS()->getType()->isPointerType() || b->getLHS()->isTypeDependent()) e = b->getLHS();
        else e = b->getRHS();
        continue;
      }
      if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getNumArgs() > 0) {
        e = oc->getArg(0);
        continue;
      }
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) {
        e = mc->getImplicitObjectArgument();
        continue;
      }
      if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
        e = c->getTrueExpr();
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }

  static bool references_any(const Stmt* s, const std::set<const ValueDecl*>& decls) {
    if (!s) return false;
    if (const auto* dr = dyn_cast<DeclRefExpr>(s))
      if (decls.count(dr->getDecl())) return true;
    for (const Stmt* c : s->children())
      if (references_any(c, decls)) return true;
    return false;
  }

  bool writes_through_parameter(const FunctionDecl* fd) const {
    std::set<const ValueDecl*> derived;
    for (const ParmVarDecl* p : fd->parameters()) {
      QualType t = p->getType();
      if (t->isPointerType() || t->isReferenceType() || t->isRecordType() || t->isDependentType() ||
          t->isArrayType() || t->isTemplateTypeParmType())
        derived.insert(p);
    }
    if (derived.empty() || !fd->getBody()) return false;
    // A body Clang could not fully resolve (headers the shims lack: ThunderKittens, CUTLASS
    // internals) is not proof of writing nothing: "writes nothing" is claimed only on what resolved.
    if (contains_errors(fd->getBody())) return true;
    bool found = false;
    scan_writes(fd->getBody(), derived, found);
    return found;
  }

  static bool contains_errors(const Stmt* s) {
    if (!s) return false;
    if (const auto* e = dyn_cast<Expr>(s); e && e->containsErrors()) return true;
    for (const Stmt* c : s->children())
      if (contains_errors(c)) return true;
    return false;
  }

  void scan_writes(const Stmt* s, std::set<const ValueDecl*>& derived, bool& found) const {
    if (!s || found) return;
    if (const auto* ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl* d : ds->decls())
        if (const auto* vd = dyn_cast<VarDecl>(d))
          if (vd->getInit() && references_any(vd->getInit(), derived)) derived.insert(vd);
    }
    auto rooted = [&](const Expr* e) {
      const ValueDecl* d = root_decl(e);
      return d && derived.count(d);
    };
    if (const auto* b = dyn_cast<BinaryOperator>(s)) {
      if (b->isAssignmentOp()) {
        if (rooted(b->getLHS()) && !is_plain_local_rebind(b->getLHS())) found = true;
        // `p = out + i;` makes a local alias of an output pointer.
        if (const auto* dr = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenCasts()))
          if (references_any(b->getRHS(), derived)) derived.insert(dr->getDecl());
      }
    } else if (const auto* u = dyn_cast<UnaryOperator>(s)) {
      if (u->isIncrementDecrementOp() && rooted(u->getSubExpr()) && !is_plain_local_rebind(u->getSubExpr())) found = true;
    } else if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(s)) {
      if (oc->isAssignmentOp() && oc->getNumArgs() > 0 && rooted(oc->getArg(0)) && !is_plain_local_rebind(oc->getArg(0)))
        found = true;
    } else if (const auto* call = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* callee = call->getDirectCallee();
      for (unsigned i = 0; i < call->getNumArgs() && !found; ++i) {
        const Expr* arg = call->getArg(i);
        if (!references_any(arg, derived)) continue;
        if (!callee) {
          found = true;  // dependent or unresolved callee: assume it may write
          break;
        }
        if (i < callee->getNumParams()) {
          QualType pt = callee->getParamDecl(i)->getType();
          bool readonly = (pt->isPointerType() && pt->getPointeeType().isConstQualified()) ||
                          (pt->isReferenceType() && pt.getNonReferenceType().isConstQualified()) ||
                          (!pt->isPointerType() && !pt->isReferenceType() && !pt->isRecordType() && !pt->isDependentType());
          if (!readonly) found = true;
        } else if (callee->isVariadic() || callee->isTemplateInstantiation()) {
          found = true;
        }
      }
    } else if (const auto* recovery = dyn_cast<RecoveryExpr>(s)) {
      // A call Clang could not resolve (a library whose headers the shims lack, such as
      // ThunderKittens' kittens::store(g.c, tile)) that is handed a parameter may write it.
      for (const Expr* sub : recovery->subExpressions())
        if (sub && references_any(sub, derived)) found = true;
    }
    for (const Stmt* c : s->children()) scan_writes(c, derived, found);
  }

  // `p = q` or `p++` on a local pointer variable itself rebinds it; it does not write memory.
  static bool is_plain_local_rebind(const Expr* lhs) {
    const auto* dr = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
    if (!dr) return false;
    const auto* vd = dyn_cast<VarDecl>(dr->getDecl());
    if (!vd || vd->getType()->isReferenceType()) return false;
    return vd->getType()->isPointerType() || vd->getType()->isArithmeticType() || isa<ParmVarDecl>(vd);
  }

  // ---- calls ----

  struct Resolution {
    std::string resolved;
    std::string name;  // last component
    SourceLocation name_loc;
    ReceiverKind receiver = ReceiverKind::None;
    bool local_target = false;
  };

  ReceiverKind receiver_of(const Expr* base) const {
    if (!base) return ReceiverKind::None;
    base = base->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(base)) return ReceiverKind::Self;
    if (const ValueDecl* d = root_decl(base)) {
      if (isa<ParmVarDecl>(d)) return ReceiverKind::Param;
      return ReceiverKind::Value;
    }
    return ReceiverKind::Value;
  }

  std::string qualifier_text(NestedNameSpecifier* q) const {
    if (!q) return {};
    std::string s;
    llvm::raw_string_ostream os(s);
    q->print(os, ctx_.getPrintingPolicy());
    return os.str();
  }

  static std::string unique_decl_name(const OverloadExpr* o) {
    std::string name;
    for (const NamedDecl* d : o->decls()) {
      const NamedDecl* target = d->getUnderlyingDecl();
      if (const auto* ft = dyn_cast<FunctionTemplateDecl>(target)) target = ft->getTemplatedDecl();
      std::string q = qualified_name(target);
      if (name.empty()) name = q;
      else if (name != q) return {};
    }
    return name;
  }

  bool defined_here(const FunctionDecl* fd) const {
    const FunctionDecl* def = nullptr;
    if (fd->hasBody(def) && def && in_main(def->getLocation())) return true;
    return false;
  }

  Resolution resolve(const Expr* callee_expr) const {
    Resolution r;
    if (!callee_expr) return r;
    const Expr* c = callee_expr->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(c); u && u->getOpcode() == UO_Deref) c = u->getSubExpr()->IgnoreParenImpCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(c)) {
      r.name_loc = dr->getLocation();
      if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) {
        r.resolved = qualified_name(fd);
        r.local_target = defined_here(fd);
        r.receiver = fd->getDeclContext()->isNamespace() && dr->getQualifier() ? ReceiverKind::Module : ReceiverKind::None;
      } else if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) {
        // A function pointer bound once: follow its initializer (`auto f = &at::matmul; f(a, b)`).
        const Expr* init = vd->getAnyInitializer();
        const FunctionDecl* target = nullptr;
        if (init) {
          const Expr* ie = init->IgnoreParenCasts();
          if (const auto* u = dyn_cast<UnaryOperator>(ie); u && u->getOpcode() == UO_AddrOf) ie = u->getSubExpr()->IgnoreParenCasts();
          if (const auto* idr = dyn_cast<DeclRefExpr>(ie)) target = dyn_cast<FunctionDecl>(idr->getDecl());
        }
        r.resolved = target ? qualified_name(target) : vd->getNameAsString();
        r.receiver = ReceiverKind::Value;
      } else {
        r.resolved = qualified_name(dr->getDecl());
      }
    } else if (const auto* me = dyn_cast<MemberExpr>(c)) {
      r.name_loc = me->getMemberLoc();
      r.resolved = qualified_name(me->getMemberDecl());
      if (const auto* fd = dyn_cast<FunctionDecl>(me->getMemberDecl())) r.local_target = defined_here(fd);
      r.receiver = receiver_of(me->getBase());
    } else if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(c)) {
      r.name_loc = ul->getNameLoc();
      r.resolved = unique_decl_name(ul);
      if (r.resolved.empty()) r.resolved = qualifier_text(ul->getQualifier()) + ul->getName().getAsString();
      r.receiver = ul->getQualifier() ? ReceiverKind::Module : ReceiverKind::None;
    } else if (const auto* um = dyn_cast<UnresolvedMemberExpr>(c)) {
      r.name_loc = um->getMemberLoc();
      r.resolved = unique_decl_name(um);
      if (r.resolved.empty()) r.resolved = type_name(um->getBaseType()) + "::" + um->getMemberName().getAsString();
      r.receiver = um->isImplicitAccess() ? ReceiverKind::Self : receiver_of(um->getBase());
    } else if (const auto* dm = dyn_cast<CXXDependentScopeMemberExpr>(c)) {
      r.name_loc = dm->getMemberLoc();
      std::string base = dm->isImplicitAccess() ? "this" : type_name(dm->getBaseType());
      if (base.empty() || dm->getBaseType()->isDependentType()) base = "?";
      if (!dm->isImplicitAccess() && dm->getBase()) {
        if (const auto* re = dyn_cast<RecoveryExpr>(dm->getBase()->IgnoreParenImpCasts())) {
          auto subs = re->subExpressions();
          if (!subs.empty()) base = type_name(subs.front()->getType());
        }
      }
      r.resolved = base + "::" + dm->getMember().getAsString();
      r.receiver = dm->isImplicitAccess() ? ReceiverKind::Self : receiver_of(dm->getBase());
    } else if (const auto* ds = dyn_cast<DependentScopeDeclRefExpr>(c)) {
      r.name_loc = ds->getLocation();
      r.resolved = qualifier_text(ds->getQualifier()) + ds->getDeclName().getAsString();
    } else if (const auto* re = dyn_cast<RecoveryExpr>(c)) {
      // `x.frobnicate(2)` where the member does not exist: Clang keeps only `x`.
      std::string text = trim_spaces(text_of(re->getSourceRange()));
      r.name_loc = re->getBeginLoc();
      auto subs = re->subExpressions();
      std::string member = text;
      size_t dot = std::min(text.rfind('.'), text.rfind("->"));
      if (dot != std::string::npos) member = text.substr(text[dot] == '.' ? dot + 1 : dot + 2);
      if (!subs.empty() && dot != std::string::npos && !subs.front()->getType().isNull() &&
          !subs.front()->getType()->isDependentType()) {
        QualType t = subs.front()->getType();
        if (t->isPointerType()) t = t->getPointeeType();
        r.resolved = type_name(t) + "::" + member;
        r.receiver = receiver_of(subs.front());
      } else {
        r.resolved = text;
      }
    } else {
      r.name_loc = c->getBeginLoc();
      r.resolved = trim_spaces(text_of(c->getSourceRange()));
    }
    r.name = std::string(last_component(r.resolved));
    return r;
  }

  bool token_pasted(SourceLocation loc) const {
    if (loc.isInvalid() || !loc.isMacroID()) return false;
    return sm_.isWrittenInScratchSpace(sm_.getSpellingLoc(loc));
  }

  void collect_arg_names(const Stmt* s, std::vector<std::string>& out) const {
    if (!s) return;
    if (const auto* e = dyn_cast<Expr>(s)) {
      SourceLocation b = e->getBeginLoc();
      if (b.isMacroID()) {
        StringRef m = Lexer::getImmediateMacroName(b, sm_, ctx_.getLangOpts());
        if (!m.empty() && std::find(out.begin(), out.end(), m.str()) == out.end()) out.push_back(m.str());
      }
      if (const auto* dr = dyn_cast<DeclRefExpr>(e))
        if (isa<EnumConstantDecl>(dr->getDecl())) {
          std::string n = dr->getDecl()->getNameAsString();
          if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
        }
      if (const auto* ce = dyn_cast<CastExpr>(e))
        if (ce->getCastKind() == CK_IntegralToPointer &&
            std::find(out.begin(), out.end(), "@int-to-pointer") == out.end())
          out.push_back("@int-to-pointer");
    }
    for (const Stmt* c : s->children()) collect_arg_names(c, out);
  }

  void add_call(const Expr* call, const Expr* callee) {
    if (!in_main(call->getBeginLoc())) return;
    Resolution r = resolve(callee);
    if (r.resolved.empty()) return;
    Call c;
    c.resolved = r.resolved;
    c.method = r.name;
    c.receiver = r.receiver;
    c.local_target = r.local_target;
    c.callee = trim_spaces(text_of(callee->getSourceRange()));
    if (c.callee.empty()) c.callee = r.resolved;
    if (token_pasted(r.name_loc)) {
      c.dynamic_name = true;
      c.callee += " [token-pasted]";
    }
    std::vector<const Expr*> args;
    if (const auto* ce = dyn_cast<CallExpr>(call)) {
      for (const Expr* a : ce->arguments()) args.push_back(a);
    } else if (const auto* re = dyn_cast<RecoveryExpr>(call)) {
      auto subs = re->subExpressions();
      for (size_t i = 1; i < subs.size(); ++i) args.push_back(subs[i]);
    }
    for (const Expr* a : args) {
      if (const auto* sl = dyn_cast<StringLiteral>(a->IgnoreParenImpCasts())) c.string_args.push_back(sl->getString().str());
      collect_arg_names(a, c.keywords);
    }
    if (in_loop()) c.keywords.push_back("@in-loop");
    // Python bindings: m.def("name", &fn) / TORCH_LIBRARY m.impl("name", fn) export `fn` as `name`.
    if ((c.resolved == "pybind11::module_::def" || c.resolved == "torch::Library::def" ||
         c.resolved == "torch::Library::impl") && args.size() >= 2) {
      const Expr* target = args[1]->IgnoreParenCasts();
      if (const auto* u = dyn_cast<UnaryOperator>(target); u && u->getOpcode() == UO_AddrOf) target = u->getSubExpr()->IgnoreParenCasts();
      if (const auto* dr = dyn_cast<DeclRefExpr>(target))
        if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) c.keywords.push_back("@bind:" + qualified_name(fd));
    }
    c.function = current_function();
    c.module = in_.module;
    c.guard = guard();
    c.span = span_of(call->getSourceRange());
    if (tensor_arithmetic(r.resolved)) {
      const auto operands = operands_of(call);
      c.scalar_operands = !operands.empty() && std::all_of(operands.begin(), operands.end(), [&](const Expr* o) { return one_element(o); });
    }
    if (auto o = offsets(callee->getSourceRange())) callee_ranges_.push_back(*o);
    note_call_effects(call, callee, r, args, c.keywords);
    facts_.calls.push_back(std::move(c));
  }

  static bool tensor_arithmetic(std::string_view name) {
    static const std::set<std::string_view> kOps = {
        "at::operator+", "at::operator-", "at::operator*", "at::operator/", "at::add", "at::sub", "at::mul",
        "at::div", "at::Tensor::add", "at::Tensor::sub", "at::Tensor::mul", "at::Tensor::div",
        "at::Tensor::add_", "at::Tensor::sub_", "at::Tensor::mul_", "at::Tensor::div_", "at::Tensor::operator+=",
        "at::Tensor::operator-=", "at::Tensor::operator*=", "at::Tensor::operator/=", "at::Tensor::operator-"};
    return kOps.count(name) > 0;
  }

  // The operands of a call: the object of a member call first, then the arguments.
  static std::vector<const Expr*> operands_of(const Expr* call) {
    std::vector<const Expr*> out;
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) out.push_back(mc->getImplicitObjectArgument());
    if (const auto* ce = dyn_cast<CallExpr>(call))
      for (const Expr* a : ce->arguments()) out.push_back(a);
    return out;
  }

  static const Expr* strip(const Expr* e) {
    for (int i = 0; e && i < 8; ++i) {
      const Expr* next = e->IgnoreImplicit()->IgnoreParenImpCasts();
      if (const auto* ce = dyn_cast<CXXConstructExpr>(next); ce && ce->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(ce))
        next = ce->getArg(0);
      if (const auto* mt = dyn_cast<MaterializeTemporaryExpr>(next)) next = mt->getSubExpr();
      if (const auto* il = dyn_cast<CXXStdInitializerListExpr>(next)) next = il->getSubExpr();
      if (next == e) break;
      e = next;
    }
    return e;
  }

  // Sizes of one element: `{}`, `{1}`, `{1, 1}` or `1`.
  static bool one_element_sizes(const Expr* e) {
    e = strip(e);
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e)) return ce->getNumArgs() == 0;
    const auto is_one = [](const Expr* x) {
      const auto* lit = dyn_cast<IntegerLiteral>(strip(x));
      return lit && lit->getValue() == 1;
    };
    if (const auto* il = dyn_cast<InitListExpr>(e))
      return std::all_of(il->inits().begin(), il->inits().end(), [&](const Expr* x) { return is_one(x); });
    return is_one(e);
  }

  // A tensor expression that holds one element: a 0-d or [1] allocation, a full reduction with no
  // dimension argument, arithmetic of such, or a local initialised to one; numbers count too.
  bool one_element(const Expr* e, int depth = 0) const {
    if (!e || depth > 6) return false;
    e = strip(e);
    if (!is_tensor_record(e->getType())) return !e->getType().isNull() && e->getType()->isArithmeticType();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      const auto* vd = dyn_cast<VarDecl>(dr->getDecl());
      return vd && !isa<ParmVarDecl>(vd) && vd->hasInit() && one_element(vd->getInit(), depth + 1);
    }
    const auto* ce = dyn_cast<CallExpr>(e);
    const FunctionDecl* fd = ce ? ce->getDirectCallee() : nullptr;
    if (!fd) return false;
    const std::string name = qualified_name(fd);
    if (name == "at::scalar_tensor") return true;
    if (name == "at::zeros" || name == "at::ones" || name == "at::empty" || name == "at::full")
      return ce->getNumArgs() > 0 && one_element_sizes(ce->getArg(0));
    if (isa<CXXMemberCallExpr>(ce) && ce->getNumArgs() == 0 &&
        (name == "at::Tensor::sum" || name == "at::Tensor::mean" || name == "at::Tensor::max" ||
         name == "at::Tensor::min" || name == "at::Tensor::amax" || name == "at::Tensor::amin"))
      return true;
    if (tensor_arithmetic(name)) {
      const auto operands = operands_of(ce);
      return std::all_of(operands.begin(), operands.end(), [&](const Expr* o) { return one_element(o, depth + 1); });
    }
    return false;
  }

  void add_construction(const CXXConstructExpr* e, const std::string& cls) {
    Call c;
    std::string last(last_component(cls));
    c.resolved = cls + "::" + last;
    c.method = last;
    c.callee = trim_spaces(text_of(e->getSourceRange()));
    if (c.callee.size() > 80) c.callee = cls;
    c.receiver = ReceiverKind::None;
    for (const Expr* a : e->arguments()) collect_arg_names(a, c.keywords);
    if (in_loop()) c.keywords.push_back("@in-loop");
    c.function = current_function();
    c.module = in_.module;
    c.guard = guard();
    c.span = span_of(e->getSourceRange());
    facts_.calls.push_back(std::move(c));
  }

  // Precision conversions, launch APIs, and what a call does to the variables it names.
  void note_call_effects(const Expr* call, const Expr* callee, const Resolution& r, const std::vector<const Expr*>& args,
                         const std::vector<std::string>& names) {
    if (auto dt = conversion_function_dtype(r.resolved)) {
      // __float2half(0.0f): a constant in the target type, not a conversion of computed values.
      const bool literal = !args.empty() && std::all_of(args.begin(), args.end(), [](const Expr* a) {
        a = a->IgnoreParenImpCasts();
        if (const auto* u = dyn_cast<UnaryOperator>(a); u && u->getOpcode() == UO_Minus) a = u->getSubExpr()->IgnoreParenImpCasts();
        return isa<FloatingLiteral>(a) || isa<IntegerLiteral>(a);
      });
      add_cast(*dt, "function", call->getSourceRange(), literal);
    }
    if (r.resolved == "at::Tensor::to" || r.resolved == "at::Tensor::toType" || r.resolved == "at::Tensor::type_as") {
      for (const Expr* a : args)
        if (auto dt = dtype_constant(a)) add_cast(*dt, "method", call->getSourceRange());
    } else if (r.resolved.rfind("at::Tensor::", 0) == 0) {
      if (auto dt = conversion_method_dtype(r.name)) add_cast(*dt, "method", call->getSourceRange());
    } else {
      for (const Expr* a : args)
        if (auto dt = dtype_constant(a)) add_cast(*dt, "keyword", call->getSourceRange());
    }
    for (const std::string& n : names) {
      if (n == "CUBLAS_TF32_TENSOR_OP_MATH" || n == "CUBLAS_COMPUTE_32F_FAST_TF32") add_cast("tf32", "flag", call->getSourceRange());
      if (n == "CUBLAS_COMPUTE_32F_FAST_16F" || n == "CUBLAS_COMPUTE_16F") add_cast("torch.float16", "flag", call->getSourceRange());
      if (n == "CUBLAS_COMPUTE_32F_FAST_16BF") add_cast("torch.bfloat16", "flag", call->getSourceRange());
    }
    if (r.resolved == "at::Context::setAllowTF32CuBLAS" || r.resolved == "at::Context::setAllowTF32CuDNN" ||
        r.resolved == "at::Context::setFloat32MatmulPrecision") {
      bool off = !args.empty() && fold_bool(args[0]).value_or(true) == false;
      if (!off) add_cast("tf32", "flag", call->getSourceRange());
    }
    if (auto api = launch_api(r.resolved)) add_api_launch(call, *api, args, r.resolved);
    if (current_function() < 0) return;
    // Variables a call hands to something other than ATen (a launch, a helper, cudaMemcpy) or
    // mutates in place count as written.
    bool aten = r.resolved.rfind("at::", 0) == 0 || r.resolved.rfind("torch::", 0) == 0 || r.resolved.rfind("c10::", 0) == 0;
    bool in_place = aten && !r.name.empty() && r.name.back() == '_' && r.name != "data_ptr_";
    if (in_place) {
      if (const auto* me = dyn_cast<MemberExpr>(callee->IgnoreParenImpCasts()))
        if (const auto* vd = dyn_cast_or_null<VarDecl>(root_decl(me->getBase()))) state_.written_vars.insert(vd->getCanonicalDecl());
    }
    if (!aten) {
      std::set<const ValueDecl*> all;
      for (const Expr* a : args) mark_vars(a);
    }
    if (aten && r.resolved.rfind("at::Tensor::", 0) == 0 && args.empty() == false) {
      // x.copy_(y) writes x; handled above. Other methods read.
    }
  }

  void mark_vars(const Stmt* s) {
    if (!s) return;
    if (const auto* dr = dyn_cast<DeclRefExpr>(s))
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) state_.written_vars.insert(vd->getCanonicalDecl());
    for (const Stmt* c : s->children()) mark_vars(c);
  }

  std::optional<std::string> dtype_constant(const Expr* a) const {
    a = a->IgnoreParenImpCasts();
    if (const auto* ce = dyn_cast<CXXConstructExpr>(a); ce && ce->getNumArgs() == 1) a = ce->getArg(0)->IgnoreParenImpCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(a)) {
      const ValueDecl* d = dr->getDecl();
      if (isa<EnumConstantDecl>(d) || (isa<VarDecl>(d) && cast<VarDecl>(d)->getType().isConstQualified()))
        if (type_name(d->getType()) == "c10::ScalarType") return low_precision_dtype(qualified_name(d));
    }
    return std::nullopt;
  }

  void note_operator_cast(const CXXOperatorCallExpr* op, const FunctionDecl* fd) {
    if (!fd || op->getOperator() != OO_Equal || op->getNumArgs() < 2) return;
    const auto* md = dyn_cast<CXXMethodDecl>(fd);
    if (!md) return;
    if (auto dt = low_precision_dtype(qualified_name(md->getParent()))) {
      QualType at = op->getArg(1)->IgnoreParenImpCasts()->getType();
      if (!at.isNull() && at->isFloatingType()) add_cast(*dt, "type", op->getSourceRange());
    }
  }

  void add_cast(const std::string& dtype, const std::string& via, SourceRange range, bool setup = false) {
    if (!in_main(range.getBegin())) return;
    Cast c;
    c.to_dtype = dtype;
    c.via = via;
    c.setup = setup;
    c.function = current_function();
    c.module = in_.module;
    c.span = span_of(range);
    facts_.casts.push_back(std::move(c));
  }

  void add_name(const std::string& name, SourceRange range) {
    if (!in_main(range.getBegin())) return;
    NameRef n;
    n.resolved = name;
    n.function = current_function();
    n.span = span_of(range);
    facts_.names.push_back(std::move(n));
  }

  // ---- launches ----

  // Whether a grid or block expression provably has zero blocks in some dimension.
  bool folds_to_zero(const Expr* e, int depth = 0) const {
    if (!e || depth > 10) return false;
    e = e->IgnoreParenImpCasts();
    if (const auto* t = dyn_cast<MaterializeTemporaryExpr>(e)) return folds_to_zero(t->getSubExpr(), depth + 1);
    if (const auto* t = dyn_cast<CXXBindTemporaryExpr>(e)) return folds_to_zero(t->getSubExpr(), depth + 1);
    if (const auto* t = dyn_cast<CXXFunctionalCastExpr>(e)) return folds_to_zero(t->getSubExpr(), depth + 1);
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e)) {
      for (const Expr* a : ce->arguments()) {
        if (isa<CXXDefaultArgExpr>(a)) continue;
        if (a->getType()->isRecordType()) {
          if (folds_to_zero(a, depth + 1)) return true;
        } else if (folds_to_zero(a, depth + 1)) {
          return true;
        }
      }
      return false;
    }
    if (const auto* il = dyn_cast<InitListExpr>(e)) {
      for (const Expr* a : il->inits())
        if (auto v = fold_int(a); v && *v == 0) return true;
      return false;
    }
    if (auto v = fold_int(e); v && *v == 0) return true;
    // `0 * ((n + 15) / 16)`: a product with a zero factor is zero whatever n is.
    if (const auto* bo = dyn_cast<BinaryOperator>(e); bo && bo->getOpcode() == BO_Mul)
      return folds_to_zero(bo->getLHS(), depth + 1) || folds_to_zero(bo->getRHS(), depth + 1);
    return folds_to_zero_var(e, depth);
  }

  bool folds_to_zero_var(const Expr* e, int depth) const {
    if (const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl()))
        if (!isa<ParmVarDecl>(vd) && vd->getInit() && !mutated_locally(vd)) return folds_to_zero(vd->getInit(), depth + 1);
    return false;
  }

  // A local whose value changes after its declaration (`dim3 g(0); g.x = n;`) cannot be folded.
  bool mutated_locally(const VarDecl* vd) const {
    if (!state_.decl || !state_.decl->getBody()) return true;
    return assigns_to(state_.decl->getBody(), vd);
  }

  static bool assigns_to(const Stmt* s, const VarDecl* vd) {
    if (!s) return false;
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
      if (root_decl(b->getLHS()) == vd) return true;
    if (const auto* u = dyn_cast<UnaryOperator>(s)) {
      if (u->isIncrementDecrementOp() && root_decl(u->getSubExpr()) == vd) return true;
      if (u->getOpcode() == UO_AddrOf && root_decl(u->getSubExpr()) == vd) return true;
    }
    if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(s); oc && oc->isAssignmentOp() && oc->getNumArgs() > 0)
      if (root_decl(oc->getArg(0)) == vd) return true;
    for (const Stmt* c : s->children())
      if (assigns_to(c, vd)) return true;
    return false;
  }

  std::string kernel_name(const Expr* callee, const FunctionDecl** decl) const {
    const Expr* c = callee->IgnoreParenCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(c); u && u->getOpcode() == UO_AddrOf) c = u->getSubExpr()->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(c)) {
      if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) {
        const FunctionDecl* pattern = fd->getTemplateInstantiationPattern();
        *decl = pattern ? pattern : fd;
        return qualified_name(fd);
      }
    }
    if (const auto* ul = dyn_cast<UnresolvedLookupExpr>(c)) {
      for (const NamedDecl* d : ul->decls()) {
        const NamedDecl* t = d->getUnderlyingDecl();
        if (const auto* ft = dyn_cast<FunctionTemplateDecl>(t)) *decl = ft->getTemplatedDecl();
        else if (const auto* fd = dyn_cast<FunctionDecl>(t)) *decl = fd;
      }
      std::string q = unique_decl_name(ul);
      return q.empty() ? ul->getName().getAsString() : q;
    }
    Resolution r = resolve(callee);
    return r.resolved;
  }

  void add_chevron_launch(const CUDAKernelCallExpr* k) {
    if (!in_main(k->getBeginLoc())) return;
    Launch l;
    l.kind = LaunchKind::CudaChevron;
    const FunctionDecl* decl = nullptr;
    l.kernel = kernel_name(k->getCallee(), &decl);
    if (const CallExpr* cfg = k->getConfig(); cfg && cfg->getNumArgs() >= 2) {
      l.grid = trim_grid(text_of(cfg->getArg(0)->getSourceRange()));
      l.grid_empty = folds_to_zero(cfg->getArg(0)) || folds_to_zero(cfg->getArg(1));
    }
    finish_launch(l, decl, k->getSourceRange());
  }

  void add_api_launch(const Expr* call, const LaunchApi& api, const std::vector<const Expr*>& args, const std::string& name) {
    Launch l;
    l.kind = LaunchKind::CudaApi;
    const FunctionDecl* decl = nullptr;
    if (api.kernel_arg < static_cast<int>(args.size())) l.kernel = kernel_name(args[api.kernel_arg], &decl);
    if (api.grid_arg >= 0 && api.grid_arg + api.grid_args <= static_cast<int>(args.size())) {
      std::string grid;
      for (int i = 0; i < api.grid_args; ++i) {
        if (i) grid += ", ";
        grid += trim_grid(text_of(args[api.grid_arg + i]->getSourceRange()));
        if (folds_to_zero(args[api.grid_arg + i])) l.grid_empty = true;
      }
      l.grid = grid;
      // The block follows the grid: cudaLaunchKernel(f, grid, block, ...), cuLaunchKernel(f, gx, gy, gz, bx, by, bz, ...).
      for (int i = 0; i < api.grid_args; ++i) {
        size_t bi = api.grid_arg + api.grid_args + i;
        if (bi < args.size() && folds_to_zero(args[bi])) l.grid_empty = true;
      }
    }
    (void)name;
    for (const Expr* a : args) mark_vars(a);
    finish_launch(l, decl, call->getSourceRange());
  }

  static std::string trim_grid(std::string s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  }

  void finish_launch(Launch& l, const FunctionDecl* decl, SourceRange range) {
    l.function = current_function();
    l.module = in_.module;
    l.guard = guard();
    l.span = span_of(range);
    int idx = static_cast<int>(facts_.launches.size());
    if (decl) pending_launch_kernels_.emplace_back(idx, decl->getCanonicalDecl());
    facts_.launches.push_back(std::move(l));
  }

  // ---- state, writes, returns ----

  void add_global(const VarDecl* vd) {
    QualType t = vd->getType();
    std::string kind;
    std::string spelled = t.getAsString();
    if (is_tensor_type_name(type_name(t)) || spelled.find("Tensor") != std::string::npos) kind = "tensor";
    else if (t->isPointerType() && !t->getPointeeType()->isFunctionType() &&
             !(t->getPointeeType()->isCharType() && t->getPointeeType().isConstQualified()))
      kind = "pointer";
    if (kind.empty()) return;
    GlobalState g;
    g.name = vd->getNameAsString();
    g.kind = kind;
    g.module = in_.module;
    g.span = span_of(SourceRange(vd->getLocation(), vd->getLocation()));
    global_index_[vd->getCanonicalDecl()] = static_cast<int>(facts_.globals.size());
    facts_.globals.push_back(std::move(g));
  }

  void note_write(const Expr* lhs, const Expr* rhs) {
    const auto* vd = dyn_cast_or_null<VarDecl>(root_decl(lhs));
    if (!vd) return;
    if (vd->hasGlobalStorage() && current_function() >= 0) mutated_globals_.insert(vd->getCanonicalDecl());
    if (rhs && vd->hasLocalStorage() && current_function() >= 0) {
      note_local_origin(vd, rhs);
      note_dependencies(vd, rhs);
    }
  }

  void note_operator_write(const CXXOperatorCallExpr* op) {
    if (!op->isAssignmentOp() || op->getNumArgs() < 2) return;
    note_write(op->getArg(0), op->getArg(1));
  }

  // Which calls a local's value came from (`auto y = torch::empty_like(x)` -> torch's empty_like).
  void note_local_origin(const VarDecl* vd, const Expr* init) {
    std::vector<std::string>& o = state_.origins[vd->getCanonicalDecl()];
    for (const std::string& s : origins_of(init))
      if (std::find(o.begin(), o.end(), s) == o.end()) o.push_back(s);
  }

  std::vector<std::string> origins_of(const Expr* e) const {
    std::vector<std::string> out;
    if (!e) return out;
    e = e->IgnoreParenImpCasts();
    if (const auto* ew = dyn_cast<ExprWithCleanups>(e)) e = ew->getSubExpr()->IgnoreParenImpCasts();
    if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr()->IgnoreParenImpCasts();
    if (const auto* b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr()->IgnoreParenImpCasts();
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1) return origins_of(ce->getArg(0));
    if (const auto* call = dyn_cast<CallExpr>(e)) {
      Resolution r = resolve(call->getCallee());
      if (!r.resolved.empty()) out.push_back(r.resolved);
      // View-like methods keep the origin of their receiver (`torch::empty(...).view(...)`).
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call))
        if (is_view_method(r.name))
          for (const std::string& s : origins_of(mc->getImplicitObjectArgument())) out.push_back(s);
    } else if (const auto* re = dyn_cast<RecoveryExpr>(e)) {
      auto subs = re->subExpressions();
      if (!subs.empty()) {
        Resolution r = resolve(subs.front());
        if (!r.resolved.empty()) out.push_back(r.resolved);
      }
    } else if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) {
        auto it = state_.origins.find(vd->getCanonicalDecl());
        if (it != state_.origins.end()) out = it->second;
      }
    }
    return out;
  }

  static bool is_view_method(const std::string& n) {
    return n == "view" || n == "reshape" || n == "contiguous" || n == "to" || n == "t" || n == "transpose" ||
           n == "permute" || n == "flatten" || n == "squeeze" || n == "unsqueeze" || n == "detach" || n == "expand" ||
           n == "clone" || n == "view_as" || n == "narrow" || n == "select" || n == "slice";
  }

  // The variable a returned expression names, through view-like methods (`out.view({n})`).
  static const ValueDecl* returned_decl(const Expr* e) {
    for (int depth = 0; e && depth < 16; ++depth) {
      e = e->IgnoreParenImpCasts();
      if (const auto* ew = dyn_cast<ExprWithCleanups>(e)) e = ew->getSubExpr()->IgnoreParenImpCasts();
      if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr()->IgnoreParenImpCasts();
      if (const auto* b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr()->IgnoreParenImpCasts();
      if (const auto* ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1) {
        e = ce->getArg(0);
        continue;
      }
      if (const auto* dr = dyn_cast<DeclRefExpr>(e)) return dr->getDecl();
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) {
        const auto* md = mc->getMethodDecl();
        if (!md || !is_view_method(md->getNameAsString())) return nullptr;
        e = mc->getImplicitObjectArgument();
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }

  void add_return(const PendingReturn& pr, int fn) {
    const FunctionDecl* fd = state_.decl;
    if (!fd || !is_tensor_record(fd->getReturnType())) return;
    Return r;
    r.function = fn;
    const Expr* value = pr.stmt->getRetValue();
    if (!value) return;
    r.origins = origins_of(value);
    const ValueDecl* d = returned_decl(value);
    if (d && isa<ParmVarDecl>(d)) r.returns_param = true;
    if (const auto* vd = dyn_cast_or_null<VarDecl>(d)) {
      if (vd->hasGlobalStorage()) r.from_state = true;
      if (state_.written_vars.count(vd->getCanonicalDecl())) r.written = true;
    }
    if (!d) {
      // A call result returned directly: written when it is not an ATen factory.
      bool factory = false;
      for (const std::string& o : r.origins) {
        std::string_view last = last_component(o);
        if (last.rfind("empty", 0) == 0 || last.rfind("zeros", 0) == 0 || last.rfind("ones", 0) == 0 ||
            last.rfind("full", 0) == 0)
          factory = true;
      }
      r.written = !factory;
    }
    r.span = span_of(pr.stmt->getSourceRange());
    facts_.returns.push_back(std::move(r));
  }

  // ---- end of the translation unit ----

  void finish() {
    for (auto& [li, decl] : pending_launch_kernels_) {
      auto it = function_index_.find(decl);
      if (it != function_index_.end()) facts_.launches[li].kernel_function = it->second;
    }
    for (auto& [vd, gi] : global_index_)
      if (mutated_globals_.count(vd)) facts_.globals[gi].mutated_in_forward = true;
    recover_dropped_calls();
    for (const auto& [offset, name] : in_.includes) {
      Import im;
      im.module = name;
      im.span = host_span(*in_.host, mod_, offset, offset + 1);
      facts_.imports.push_back(std::move(im));
    }
  }

  // Names Clang dropped with no recovery node (`unknown_ns::f(x);` parses as a declaration):
  // read the qualified name at each error location and record it as an unresolved call.
  void recover_dropped_calls() {
    const std::string& t = mod_.text;
    auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    std::set<unsigned> seen;
    for (const ClangError& err : in_.errors) {
      unsigned b = err.offset;
      if (b >= t.size() || !ident(t[b])) continue;
      while (b > 0 && (ident(t[b - 1]) || (b > 1 && t[b - 1] == ':' && t[b - 2] == ':'))) b -= (t[b - 1] == ':' ? 2 : 1);
      unsigned e = b;
      while (e < t.size() && (ident(t[e]) || (e + 1 < t.size() && t[e] == ':' && t[e + 1] == ':'))) e += (t[e] == ':' ? 2 : 1);
      unsigned p = e;
      while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
      if (p >= t.size() || t[p] != '(' || !seen.insert(b).second) continue;
      bool covered = std::any_of(callee_ranges_.begin(), callee_ranges_.end(),
                                 [&](const auto& r) { return b >= r.first && b < std::max(r.second, r.first + 1); });
      if (covered) continue;
      Call c;
      c.callee = t.substr(b, e - b);
      c.resolved = c.callee;
      c.method = std::string(last_component(c.resolved));
      c.unresolved_dynamic = false;
      c.receiver = c.resolved.find("::") != std::string::npos ? ReceiverKind::Module : ReceiverKind::None;
      c.module = in_.module;
      int best = -1;
      unsigned best_len = ~0u;
      for (const auto& [fb, fe, idx] : function_ranges_)
        if (b >= fb && b < fe && fe - fb < best_len) {
          best = idx;
          best_len = fe - fb;
        }
      c.function = best;
      c.span = host_span(*in_.host, mod_, b, e);
      facts_.calls.push_back(std::move(c));
    }
  }
};

}  // namespace

void collect_facts(ASTContext& context, CollectorInput& input) {
  Collector collector(context, input);
  collector.run();
  measure_translation_unit(context, input, collector.definitions());
}

}  // namespace kgate::cuda
