// The Collector's calls through values. A library function reaches the entry path as a value as
// surely as by a direct call: named in a table of function pointers, held by a std::function or a
// lambda of namespace scope, handed to a helper as an argument, called as a functor, looked up in
// c10::Dispatcher by its schema name, or declared under another name with an asm label. Each of these
// is recorded as a call of the function it names; a call through a variable whose callable the
// initializer does not show is an unresolved call (Call::unresolved_dynamic). Also here: CUDA features
// chosen by number (`(cudaLimit)6`), recorded by their enumerators' names.

#include "analyzers/cuda/clang/clang_collector_impl.h"

namespace kgate::cuda::collector {

namespace {

// `f`, `&f`, `*f`, `(f)`: the DeclRefExpr a callee names directly, or null.
const DeclRefExpr* direct_ref(const Expr* e) {
  for (int i = 0; e && i < 4; ++i) {
    e = e->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && (u->getOpcode() == UO_AddrOf || u->getOpcode() == UO_Deref)) {
      e = u->getSubExpr();
      continue;
    }
    break;
  }
  return e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
}

bool is_kernel(const FunctionDecl* fd) { return fd->hasAttr<CUDAGlobalAttr>(); }

bool is_binding_call(const std::string& resolved) {
  return resolved == "pybind11::module_::def" || resolved == "torch::Library::def" ||
         resolved == "torch::Library::impl";
}

// The variable an object or callee expression is rooted in: `g`, `table[i]`, `ops.mm`, `(*p)`.
const VarDecl* callable_root(const Expr* e) {
  for (int i = 0; e && i < 8; ++i) {
    e = e->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref) {
      e = u->getSubExpr();
    } else if (const auto* as = dyn_cast<ArraySubscriptExpr>(e)) {
      e = as->getBase();
    } else if (const auto* me = dyn_cast<MemberExpr>(e); me && isa<FieldDecl>(me->getMemberDecl())) {
      e = me->getBase();
    } else if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e);
               op && op->getOperator() == OO_Subscript && op->getNumArgs() >= 1) {
      e = op->getArg(0);  // std::array / std::vector / std::map subscripts
    } else if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) {
      const std::string n = mc->getMethodDecl() ? mc->getMethodDecl()->getNameAsString() : "";
      if (n != "at" && n != "operator[]" && n != "find" && n != "front" && n != "back") return nullptr;
      e = mc->getImplicitObjectArgument();
    } else if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      return dyn_cast<VarDecl>(dr->getDecl());
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

}  // namespace

void Collector::note_callee_ref(const CallExpr* e) {
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e)) {
    // The callee of an operator call is an implicit reference to the operator function.
    if (const DeclRefExpr* r = direct_ref(op->getCallee())) callee_refs_.insert(r);
    return;
  }
  if (const DeclRefExpr* r = direct_ref(e->getCallee())) callee_refs_.insert(r);
}

void Collector::note_function_value(const DeclRefExpr* e) {
  const auto* fd = dyn_cast<FunctionDecl>(e->getDecl());
  if (!fd || callee_refs_.count(e) || !in_main(e->getBeginLoc()) || is_kernel(fd)) return;
  if (fd->isOverloadedOperator() || isa<CXXConversionDecl>(fd)) return;
  // The innermost call whose argument this is: m.def("name", &fn) exports fn, it does not call it.
  for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
    const auto* call = dyn_cast<CallExpr>(*it);
    if (!call || call == static_cast<const Stmt*>(e)) continue;
    if (const FunctionDecl* callee = call->getDirectCallee(); callee && is_binding_call(qualified_name(callee))) return;
    break;
  }
  Call c;
  c.resolved = asm_label_target(fd);
  if (c.resolved.empty()) c.resolved = qualified_name(fd);
  c.method = std::string(last_component(c.resolved));
  c.callee = trim_spaces(text_of(e->getSourceRange()));
  c.local_target = defined_here(fd);
  c.receiver = e->getQualifier() ? ReceiverKind::Module : ReceiverKind::None;
  c.keywords.push_back("@as-value");
  place_call(std::move(c), e->getSourceRange());
}

void Collector::collect_functions(const Stmt* s, std::vector<const FunctionDecl*>& out) {
  if (!s) return;
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl()); fd && !is_kernel(fd) && !fd->isOverloadedOperator())
      if (std::find(out.begin(), out.end(), fd) == out.end()) out.push_back(fd);
  if (const auto* le = dyn_cast<LambdaExpr>(s)) {
    collect_functions(le->getBody(), out);
    return;
  }
  for (const Stmt* c : s->children()) collect_functions(c, out);
}

void Collector::follow_callable_variable(const CallExpr* e) {
  if (current_function() < 0 || !in_main(e->getBeginLoc())) return;
  const Expr* object = e->getCallee();
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e)) {
    if (op->getOperator() != OO_Call || op->getNumArgs() < 1) return;
    object = op->getArg(0);
  } else if (direct_ref(object) && isa<FunctionDecl>(direct_ref(object)->getDecl())) {
    return;  // a plain call
  }
  const VarDecl* vd = callable_root(object);
  // Locals and parameters are judged where their value is made (note_function_value); a variable of
  // namespace or class scope is made elsewhere, so its initializer is read here.
  if (!vd || isa<ParmVarDecl>(vd) || vd->getParentFunctionOrMethod() != nullptr) return;
  std::vector<const FunctionDecl*> targets;
  const VarDecl* def = vd->getDefinition() ? vd->getDefinition() : vd;
  if (const Expr* init = def->getAnyInitializer()) collect_functions(init, targets);
  const std::string var = qualified_name(vd);
  const auto push = [&](const std::string& resolved, bool local, bool unresolved) {
    Call c;
    c.resolved = resolved;
    c.method = std::string(last_component(resolved));
    c.callee = trim_spaces(text_of(object->getSourceRange()));
    c.local_target = local;
    c.unresolved_dynamic = unresolved;
    c.receiver = ReceiverKind::Value;
    c.keywords.push_back("@via:" + var);
    place_call(std::move(c), e->getSourceRange());
  };
  for (const FunctionDecl* fd : targets) {
    std::string name = asm_label_target(fd);
    push(name.empty() ? qualified_name(fd) : name, defined_here(fd), false);
  }
  // Unresolved: a function pointer or std::function (or a table of them) whose initializer names no
  // function and holds no lambda. Functor objects and lambdas are resolved by their operator().
  const std::string type = vd->getType().getCanonicalType().getAsString();
  const bool holds_pointers = type.find("(*") != std::string::npos || type.find("function<") != std::string::npos;
  const Expr* init = def->getAnyInitializer();
  if (targets.empty() && holds_pointers && !(init && has_lambda(init))) push(var, false, true);
}

bool Collector::has_lambda(const Stmt* s) {
  if (!s) return false;
  if (isa<LambdaExpr>(s)) return true;
  for (const Stmt* c : s->children())
    if (has_lambda(c)) return true;
  return false;
}

bool Collector::is_local_functor_call(const CXXOperatorCallExpr* op) const {
  if (!op || op->getOperator() != OO_Call) return false;
  const auto* md = dyn_cast_or_null<CXXMethodDecl>(op->getDirectCallee());
  return md && !md->getParent()->isLambda() && defined_here(md);
}

std::string Collector::asm_label_target(const FunctionDecl* fd) const {
  const auto* label = fd ? fd->getAttr<AsmLabelAttr>() : nullptr;
  if (!label || defined_here(fd)) return {};
  return asm_label_function(label->getLabel().str());
}

std::string Collector::cast_enumerator(const Expr* e) const {
  const auto* cast = e ? dyn_cast<ExplicitCastExpr>(e->IgnoreParens()) : nullptr;
  if (!cast) return {};
  const auto* type = cast->getType()->getAs<EnumType>();
  if (!type || cast->getSubExpr()->IgnoreParenImpCasts()->getType()->isEnumeralType()) return {};
  const std::optional<int64_t> value = fold_int(cast->getSubExpr());
  if (!value) return {};
  for (const EnumConstantDecl* c : type->getDecl()->enumerators())
    if (c->getInitVal() == *value) {
      std::string n = c->getNameAsString();
      if (n.rfind("cuda", 0) == 0 || n.rfind("CU_", 0) == 0) return n;
    }
  return {};
}

bool Collector::VisitExplicitCastExpr(ExplicitCastExpr* e) {
  if (std::string n = cast_enumerator(e); !n.empty()) add_name(n, e->getSourceRange());
  return true;
}

}  // namespace kgate::cuda::collector
