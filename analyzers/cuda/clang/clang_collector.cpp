// Turns a Clang AST into KernelGate facts: functions, resolved calls (through macros, using,
// namespace aliases, templates, `##`), launches with their validity, static state, casts, returns.
// This file: the traversal (the Visit*/Traverse* hooks), locations, guards, functions, and the end
// of the translation unit; see clang_collector_impl.h for the rest.
#include "analyzers/cuda/clang/clang_collector_impl.h"

namespace kgate::cuda::collector {

bool Collector::TraverseDecl(Decl* d) {
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

bool Collector::VisitVarDecl(VarDecl* vd) {
  if (isa<ParmVarDecl>(vd) || !in_main(vd->getLocation())) return true;
  if (vd->hasGlobalStorage() && !vd->getType().isConstQualified()) add_global(vd);
  note_fragment_precision(vd);
  if (current_function() >= 0 && vd->hasLocalStorage()) {
    if (const Expr* init = vd->getInit()) {
      note_local_origin(vd, init);
      note_dependencies(vd, init);
      if (const Expr* root = storage_root(init)) state_.storage_of[vd->getCanonicalDecl()] = root;
    }
  }
  return true;
}

bool Collector::VisitCallExpr(CallExpr* e) {
  note_callee_ref(e);
  if (auto* k = dyn_cast<CUDAKernelCallExpr>(e)) {
    add_chevron_launch(k);
    return true;
  }
  if (const FunctionDecl* fd = e->getDirectCallee()) {
    std::string n = fd->getNameAsString();
    if (n == "__cudaPushCallConfiguration" || n == "cudaConfigureCall") return true;
  }
  follow_callable_variable(e);
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e)) {
    note_operator_write(op);
    const FunctionDecl* fd = op->getDirectCallee();
    std::string q = fd ? qualified_name(fd) : "";
    note_operator_cast(op, fd);
    if (q.rfind("at::", 0) != 0 && q.rfind("torch::", 0) != 0 && !is_local_functor_call(op)) return true;
  }
  add_call(e, e->getCallee());
  return true;
}

bool Collector::VisitRecoveryExpr(RecoveryExpr* e) {
  // `undeclared(x, 3)` keeps no CallExpr: the recovery node holds the lookup and the arguments.
  auto subs = e->subExpressions();
  if (subs.empty()) return true;
  const Expr* first = subs.front()->IgnoreParenImpCasts();
  if (isa<UnresolvedLookupExpr>(first) && text_after(e->getSourceRange(), first).find('(') == 0) add_call(e, first);
  return true;
}

bool Collector::VisitCXXConstructExpr(CXXConstructExpr* e) {
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

bool Collector::VisitDeclRefExpr(DeclRefExpr* e) {
  note_function_value(e);
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

bool Collector::VisitMemberExpr(MemberExpr* e) {
  if (const auto* fd = dyn_cast<FieldDecl>(e->getMemberDecl())) {
    std::string n = fd->getNameAsString();
    if (n == "accessPolicyWindow" || n == "hitProp" || n == "missProp" || n == "hitRatio")
      add_name(qualified_name(fd), e->getSourceRange());
  }
  return true;
}

bool Collector::VisitStringLiteral(StringLiteral* s) {
  if (!in_main(s->getBeginLoc()) || s->getByteLength() > 300 || s->getCharByteWidth() != 1) return true;
  StringConst c;
  c.value = s->getString().str();
  c.function = current_function();
  c.span = span_of(s->getSourceRange());
  facts_.strings.push_back(std::move(c));
  return true;
}

bool Collector::TraverseCUDAKernelCallExpr(CUDAKernelCallExpr* e, DataRecursionQueue*) {
  if (!WalkUpFromCUDAKernelCallExpr(e)) return false;
  ++in_launch_args_;
  for (Stmt* child : e->children()) TraverseStmt(child);
  --in_launch_args_;
  return true;
}

std::optional<std::pair<unsigned, unsigned>> Collector::offsets(SourceRange r) const {
  if (r.isInvalid()) return std::nullopt;
  // Code written inside a macro argument (AT_DISPATCH_*'s lambda) keeps its own place; code a
  // macro body produced is placed at the macro invocation.
  CharSourceRange cr = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
  if (cr.isInvalid()) {
    cr = sm_.getExpansionRange(r);
    if (cr.isTokenRange())
      cr = CharSourceRange::getCharRange(cr.getBegin(),
                                         Lexer::getLocForEndOfToken(cr.getEnd(), 0, sm_, ctx_.getLangOpts()));
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

Span Collector::span_of(SourceRange r) const {
  auto o = offsets(r);
  if (!o) return {};
  return mod_.host_span(*in_.host, o->first, o->second);
}

std::string Collector::text_of(SourceRange r) const {
  auto o = offsets(r);
  if (!o) return {};
  return mod_.text.substr(o->first, o->second - o->first);
}

std::string Collector::text_after(SourceRange whole, const Expr* sub) const {
  auto w = offsets(whole);
  auto s = offsets(sub->getSourceRange());
  if (!w || !s || s->second > w->second) return {};
  std::string t = mod_.text.substr(s->second, w->second - s->second);
  size_t p = t.find_first_not_of(" \t\r\n");
  return p == std::string::npos ? std::string() : t.substr(p);
}

std::optional<bool> Collector::fold_bool(const Expr* e) const {
  if (!e || e->isValueDependent() || e->isTypeDependent() || e->containsErrors()) return std::nullopt;
  bool value = false;
  if (e->EvaluateAsBooleanCondition(value, ctx_)) return value;
  return std::nullopt;
}

std::optional<int64_t> Collector::fold_int(const Expr* e) const {
  if (!e || e->isValueDependent() || e->isTypeDependent() || e->containsErrors()) return std::nullopt;
  Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ctx_)) return r.Val.getInt().getExtValue();
  return std::nullopt;
}

bool Collector::is_shape_call(const Expr* e) {
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

bool Collector::mentions_shape(const Stmt* s) const {
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

bool Collector::impossible_shape(const Expr* cond) const {
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

bool Collector::terminates(const Stmt* s) const {
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

Guard Collector::guard() const {
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

bool Collector::in_loop() const {
  for (size_t i = stack_.size(); i-- > 0;) {
    const Stmt* s = stack_[i];
    if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) return true;
  }
  return false;
}

int Collector::add_function(const FunctionDecl* fd) {
  Function f;
  f.name = fd->getNameAsString();
  f.qualname = qualified_name(fd);
  if (const auto* md = dyn_cast<CXXMethodDecl>(fd)) f.class_name = qualified_name(md->getParent());
  if (fd->hasAttr<CUDAGlobalAttr>())
    f.kind = FunctionKind::CudaGlobal;
  else if (fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>())
    f.kind = FunctionKind::CudaDevice;
  else
    f.kind = FunctionKind::Host;
  bool tensor_param = false;
  for (const ParmVarDecl* p : fd->parameters()) {
    f.params.push_back(p->getNameAsString());
    const QualType type = p->getType();
    f.params_const.push_back(type->isPointerType() && type->getPointeeType().isConstQualified());
    if (is_tensor_record(type)) tensor_param = true;
  }
  if (tensor_param && f.kind == FunctionKind::Host) f.decorators.push_back("tensor-entry");
  if (f.kind == FunctionKind::Host && fd->isExternC()) f.decorators.push_back("extern-c");
  if (fd->getDescribedFunctionTemplate() || fd->isTemplated()) f.decorators.push_back("template");
  // A call of a virtual method may run any override the submission defines (cuda::link follows it).
  if (const auto* md = dyn_cast<CXXMethodDecl>(fd))
    for (const CXXMethodDecl* base : md->overridden_methods())
      f.decorators.push_back("overrides:" + qualified_name(base));
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

void Collector::note_dependencies(const VarDecl* vd, const Stmt* s) {
  if (!s) return;
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* w = dyn_cast<VarDecl>(dr->getDecl()))
      state_.depends_on[vd->getCanonicalDecl()].insert(w->getCanonicalDecl());
  for (const Stmt* c : s->children()) note_dependencies(vd, c);
}

// What writes a local writes the locals its value names (a view's write is its base's); so does
// handing it to a function.
void Collector::propagate_written() {
  bool changed = true;
  while (changed) {
    changed = false;
    for (const auto& [v, deps] : state_.depends_on) {
      const bool written = state_.written_vars.count(v) > 0;
      const auto handed = state_.handed_vars.find(v);
      for (const VarDecl* d : deps) {
        if (written && state_.written_vars.insert(d).second) changed = true;
        if (handed == state_.handed_vars.end() || d == v) continue;
        auto& to = state_.handed_vars[d];
        for (const auto& h : state_.handed_vars.at(v))
          if (to.insert(h).second) changed = true;
      }
    }
  }
}

void Collector::finish_function(const FunctionDecl* fd, int idx) {
  propagate_written();
  if (facts_.functions[idx].kind == FunctionKind::CudaGlobal && !writes_through_parameter(fd))
    facts_.functions[idx].decorators.push_back("no-pointer-write");
  if (facts_.functions[idx].kind == FunctionKind::Host)
    for (auto& d : param_read_decorators(fd)) facts_.functions[idx].decorators.push_back(std::move(d));
  for (const auto& pr : state_.returns) add_return(pr, idx);
}

void Collector::finish() {
  for (auto& [li, decl] : pending_launch_kernels_) {
    auto it = function_index_.find(decl);
    if (it != function_index_.end()) facts_.launches[li].kernel_function = it->second;
  }
  for (auto& [vd, gi] : global_index_)
    if (mutated_globals_.count(vd)) facts_.globals[gi].mutated_in_forward = true;
  recover_dropped_calls();
  note_mma_atoms();
  for (const auto& [offset, name] : in_.includes) {
    Import im;
    im.module = name;
    im.span = mod_.host_span(*in_.host, offset, offset + 1);
    facts_.imports.push_back(std::move(im));
  }
}

void Collector::note_fragment_precision(const VarDecl* vd) {
  QualType t = vd->getType();
  while (const ArrayType* at = ctx_.getAsArrayType(t)) t = at->getElementType();
  // A specialization, or as written when it depends on a template parameter (`fragment<accumulator, M, N, K, T>`).
  ArrayRef<TemplateArgument> args;
  if (const auto* spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl())) {
    if (qualified_name(spec) != "nvcuda::wmma::fragment") return;
    args = spec->getTemplateArgs().asArray();
  } else if (const auto* tst = t->getAs<TemplateSpecializationType>()) {
    const TemplateDecl* td = tst->getTemplateName().getAsTemplateDecl();
    if (!td || qualified_name(td) != "nvcuda::wmma::fragment") return;
    args = tst->template_arguments();
  }
  if (args.size() < 5 || args[0].getKind() != TemplateArgument::Type || args[4].getKind() != TemplateArgument::Type)
    return;
  if (auto p = wmma_fragment_precision(type_name(args[0].getAsType()), type_name(args[4].getAsType())))
    add_tensor_core_cast(*p, current_function(), vd->getSourceRange());
}

void Collector::note_mma_atoms() {
  const llvm::StringRef buffer = sm_.getBufferData(main_);
  Lexer lexer(sm_.getLocForStartOfFile(main_), ctx_.getLangOpts(), buffer.begin(), buffer.begin(), buffer.end());
  auto offset = [&](SourceLocation loc) { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); };
  Token tok;
  for (lexer.LexFromRawLexer(tok); tok.isNot(tok::eof); lexer.LexFromRawLexer(tok)) {
    if (!tok.is(tok::raw_identifier) || !tok.getRawIdentifier().starts_with("SM")) continue;
    const auto precisions = mma_atom_precision(std::string_view(tok.getRawIdentifier()));
    if (precisions.empty()) continue;
    // The innermost function definition around the name; none at namespace scope (`using Mma = ...`).
    const unsigned at = sm_.getFileOffset(tok.getLocation());
    int function = -1;
    unsigned width = ~0u;
    for (const auto& [fd, idx] : definitions_) {
      if (!in_main(fd->getBeginLoc())) continue;
      const unsigned b = offset(fd->getBeginLoc()), e = offset(fd->getEndLoc());
      if (b <= at && at <= e && e - b < width) {
        function = idx;
        width = e - b;
      }
    }
    for (const auto& p : precisions) add_tensor_core_cast(p, function, SourceRange(tok.getLocation(), tok.getEndLoc()));
  }
}

void Collector::add_tensor_core_cast(const TensorCorePrecision& p, int function, SourceRange range) {
  if (!in_main(range.getBegin()) || !tensor_core_seen_.emplace(function, p.dtype, p.via).second) return;
  Cast c;
  c.to_dtype = p.dtype;
  c.via = p.via;
  c.function = function;
  c.module = in_.module;
  c.span = span_of(range);
  facts_.casts.push_back(std::move(c));
}

void Collector::recover_dropped_calls() {
  const std::string& t = mod_.text;
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  std::set<unsigned> seen;
  for (const ClangError& err : in_.errors) {
    unsigned b = err.offset;
    if (b >= t.size() || !ident(t[b])) continue;
    while (b > 0 && (ident(t[b - 1]) || (b > 1 && t[b - 1] == ':' && t[b - 2] == ':'))) b -= (t[b - 1] == ':' ? 2 : 1);
    unsigned e = b;
    while (e < t.size() && (ident(t[e]) || (e + 1 < t.size() && t[e] == ':' && t[e + 1] == ':')))
      e += (t[e] == ':' ? 2 : 1);
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
    c.span = mod_.host_span(*in_.host, b, e);
    facts_.calls.push_back(std::move(c));
  }
}

}  // namespace kgate::cuda::collector

namespace kgate::cuda {

void collect_facts(clang::ASTContext& context, CollectorInput& input) {
  collector::Collector collector(context, input);
  collector.run();
  measure_translation_unit(context, input, collector.definitions());
}

}  // namespace kgate::cuda
