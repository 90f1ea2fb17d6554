// The Collector's writes: what a kernel writes through its parameters, launches (chevron and API)
// with their validity, static state, writes to it, local origins, and returns.
#include "analyzers/cuda/clang/clang_collector_impl.h"

namespace kgate::cuda::collector {

const ValueDecl* Collector::root_decl(const Expr* e) {
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
      if (b->getLHS()->getType()->isPointerType() || b->getLHS()->isTypeDependent())
        e = b->getLHS();
      else
        e = b->getRHS();
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

bool Collector::references_any(const Stmt* s, const std::set<const ValueDecl*>& decls) {
  if (!s) return false;
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (decls.count(dr->getDecl())) return true;
  for (const Stmt* c : s->children())
    if (references_any(c, decls)) return true;
  return false;
}

bool Collector::writes_through_parameter(const FunctionDecl* fd) const {
  std::set<const ValueDecl*> derived;
  for (const ParmVarDecl* p : fd->parameters()) {
    QualType t = p->getType();
    if (t->isPointerType() || t->isReferenceType() || t->isRecordType() || t->isDependentType() || t->isArrayType() ||
        t->isTemplateTypeParmType())
      derived.insert(p);
  }
  if (derived.empty() || !fd->getBody()) return false;
  // A body Clang could not fully resolve (headers the shims lack: ThunderKittens, CUTLASS
  // internals) is not proof of writing nothing: "writes nothing" is claimed only on what resolved.
  if (contains_errors(fd->getBody()) || body_has_errors(fd)) return true;
  bool found = false;
  scan_writes(fd->getBody(), derived, found);
  return found;
}

// Whether Clang reported an error inside the function's body. It recovers from some errors by dropping
// the statement whole (a call through an undeclared namespace, `warp::store(g.out, tile, ...)` under
// `using namespace kittens`; a declaration of an unknown type, `tile_gl g{x.data_ptr(), ...}`), which
// leaves no expression behind to hold the error: what the body does there is unknown.
bool Collector::body_has_errors(const FunctionDecl* fd) const {
  if (!fd || !fd->getBody()) return false;
  const SourceLocation body_begin = sm_.getExpansionLoc(fd->getBody()->getBeginLoc());
  const SourceLocation body_end = sm_.getExpansionLoc(fd->getBody()->getEndLoc());
  if (sm_.getFileID(body_begin) != main_ || sm_.getFileID(body_end) != main_) return false;
  const unsigned begin = sm_.getFileOffset(body_begin), end = sm_.getFileOffset(body_end);
  return std::any_of(in_.errors.begin(), in_.errors.end(),
                     [&](const ClangError& e) { return e.offset >= begin && e.offset <= end; });
}

bool Collector::contains_errors(const Stmt* s) {
  if (!s) return false;
  if (const auto* e = dyn_cast<Expr>(s); e && e->containsErrors()) return true;
  for (const Stmt* c : s->children())
    if (contains_errors(c)) return true;
  return false;
}

void Collector::scan_writes(const Stmt* s, std::set<const ValueDecl*>& derived, bool& found) const {
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
        bool readonly =
            (pt->isPointerType() && pt->getPointeeType().isConstQualified()) ||
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

bool Collector::is_plain_local_rebind(const Expr* lhs) {
  const auto* dr = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
  if (!dr) return false;
  const auto* vd = dyn_cast<VarDecl>(dr->getDecl());
  if (!vd || vd->getType()->isReferenceType()) return false;
  return vd->getType()->isPointerType() || vd->getType()->isArithmeticType() || isa<ParmVarDecl>(vd);
}

bool Collector::folds_to_zero(const Expr* e, int depth) const {
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

bool Collector::folds_to_zero_var(const Expr* e, int depth) const {
  if (const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl()))
      if (!isa<ParmVarDecl>(vd) && vd->getInit() && !mutated_locally(vd))
        return folds_to_zero(vd->getInit(), depth + 1);
  return false;
}

bool Collector::assigns_to(const Stmt* s, const VarDecl* vd) {
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

std::string Collector::kernel_name(const Expr* callee, const FunctionDecl** decl) const {
  const Expr* c = callee->IgnoreParenCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(c); u && u->getOpcode() == UO_AddrOf)
    c = u->getSubExpr()->IgnoreParenCasts();
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
      if (const auto* ft = dyn_cast<FunctionTemplateDecl>(t))
        *decl = ft->getTemplatedDecl();
      else if (const auto* fd = dyn_cast<FunctionDecl>(t))
        *decl = fd;
    }
    std::string q = unique_decl_name(ul);
    return q.empty() ? ul->getName().getAsString() : q;
  }
  Resolution r = resolve(callee);
  return r.resolved;
}

void Collector::add_chevron_launch(const CUDAKernelCallExpr* k) {
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

void Collector::add_api_launch(const Expr* call, const LaunchApi& api, const std::vector<const Expr*>& args,
                               const std::string& name) {
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
    // The block follows the grid: cudaLaunchKernel(f, grid, block, ...), cuLaunchKernel(f, gx, gy, gz, bx, by, bz,
    // ...).
    for (int i = 0; i < api.grid_args; ++i) {
      size_t bi = api.grid_arg + api.grid_args + i;
      if (bi < args.size() && folds_to_zero(args[bi])) l.grid_empty = true;
    }
  }
  (void)name;
  for (const Expr* a : args) mark_vars(a);
  finish_launch(l, decl, call->getSourceRange());
}

std::string Collector::trim_grid(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

void Collector::finish_launch(Launch& l, const FunctionDecl* decl, SourceRange range) {
  l.function = current_function();
  l.module = in_.module;
  l.guard = guard();
  l.span = span_of(range);
  int idx = static_cast<int>(facts_.launches.size());
  if (decl) pending_launch_kernels_.emplace_back(idx, decl->getCanonicalDecl());
  facts_.launches.push_back(std::move(l));
}

void Collector::add_global(const VarDecl* vd) {
  QualType t = vd->getType();
  std::string kind;
  std::string spelled = t.getAsString();
  // A callable whose signature names Tensor (std::function<at::Tensor(...)>, an operator handle)
  // holds code, not a tensor.
  const bool callable = t.getCanonicalType().getAsString().find('(') != std::string::npos;
  if (!callable && (is_tensor_type_name(type_name(t)) || spelled.find("Tensor") != std::string::npos))
    kind = "tensor";
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

void Collector::note_write(const Expr* lhs, const Expr* rhs, bool replaces) {
  const auto* vd = dyn_cast_or_null<VarDecl>(root_decl(lhs));
  if (!vd) return;
  if (vd->hasGlobalStorage() && current_function() >= 0) mutated_globals_.insert(vd->getCanonicalDecl());
  if (rhs && vd->hasLocalStorage() && current_function() >= 0) {
    if (replaces) {
      // `out = at::relu(x)` on every path: what `out` held before is gone.
      if (on_every_path()) state_.origins.erase(vd->getCanonicalDecl());
      note_local_origin(vd, rhs);
      // `p = y.data_ptr<float>()`: p now points into y's storage, or into no tensor's; on some paths
      // only, it may still point where it did.
      const Expr* root = storage_root(rhs);
      if (on_every_path() && !root)
        state_.storage_of.erase(vd->getCanonicalDecl());
      else if (root && (on_every_path() || !state_.storage_of.count(vd->getCanonicalDecl())))
        state_.storage_of[vd->getCanonicalDecl()] = root;
    }
    note_dependencies(vd, rhs);
  }
}

bool Collector::on_every_path() const {
  return std::none_of(stack_.begin(), stack_.end(), [](const Stmt* s) {
    return isa<IfStmt, SwitchStmt, ForStmt, CXXForRangeStmt, WhileStmt, DoStmt, AbstractConditionalOperator, CXXTryStmt,
               LambdaExpr>(s) ||
           (isa<BinaryOperator>(s) && cast<BinaryOperator>(s)->isLogicalOp());
  });
}

void Collector::note_local_origin(const VarDecl* vd, const Expr* init) {
  std::vector<std::string>& o = state_.origins[vd->getCanonicalDecl()];
  for (const std::string& s : origins_of(init))
    if (std::find(o.begin(), o.end(), s) == o.end()) o.push_back(s);
}

std::vector<std::string> Collector::origins_of(const Expr* e) const {
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

bool Collector::is_view_method(const std::string& n) {
  return n == "view" || n == "reshape" || n == "contiguous" || n == "to" || n == "t" || n == "transpose" ||
         n == "permute" || n == "flatten" || n == "squeeze" || n == "unsqueeze" || n == "detach" || n == "expand" ||
         n == "clone" || n == "view_as" || n == "narrow" || n == "select" || n == "slice";
}

const ValueDecl* Collector::returned_decl(const Expr* e) {
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

void Collector::add_return(const PendingReturn& pr, int fn) {
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
    // A body with statements Clang dropped may write the buffer there: not proof of "unwritten".
    if (state_.written_vars.count(vd->getCanonicalDecl()) || body_has_errors(fd)) {
      r.written = true;
    } else if (auto h = state_.handed_vars.find(vd->getCanonicalDecl()); h != state_.handed_vars.end()) {
      r.handed.assign(h->second.begin(), h->second.end());
    }
  }
  if (!d) {
    // A call result returned directly. An ATen factory's is unwritten; so is a free function's (or a
    // view of one): whether `return make_output(x);` returns a written buffer is the callee's to say,
    // and cuda::link gives the return the callee's origins when the callee's own return is unwritten
    // (returns_through_helpers). Another method's result (`empty_like(x).fill_(1)`) is written.
    bool factory = false;
    for (const std::string& o : r.origins) {
      std::string_view last = last_component(o);
      if (last.rfind("empty", 0) == 0 || last.rfind("zeros", 0) == 0 || last.rfind("ones", 0) == 0 ||
          last.rfind("full", 0) == 0)
        factory = true;
    }
    const Expr* bare = strip_copies(value);
    bool callee_decides = false;
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(bare)) {
      const auto* method = mc->getMethodDecl();
      callee_decides = method && method->getDeclName().isIdentifier() && is_view_method(method->getName().str());
    } else if (const auto* call = dyn_cast<CallExpr>(bare)) {
      callee_decides = !isa<CXXOperatorCallExpr>(call);
    }
    r.written = !factory && !callee_decides;
  }
  r.span = span_of(pr.stmt->getSourceRange());
  facts_.returns.push_back(std::move(r));
}

}  // namespace kgate::cuda::collector
