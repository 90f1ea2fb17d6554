// The Collector's calls: resolving a callee (through macros, using-declarations, namespace aliases,
// templates and `##`), the effects of a call, constructions, casts to a dtype, and names.
#include "analyzers/cuda/clang/clang_collector_impl.h"

namespace kgate::cuda::collector {

namespace {

// The variables an expression reads (`p`, `base` and `i` of `(char*)base + i * stride`), and whether
// it calls anything (a call may return a different address each time).
void variables_in(const Stmt* s, std::set<const VarDecl*>& out, bool& calls, int depth = 0) {
  if (!s || depth > 64) return;
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) out.insert(vd->getCanonicalDecl());
  if (isa<CallExpr>(s) && !isa<CXXMemberCallExpr>(s)) calls = true;
  for (const Stmt* c : s->children()) variables_in(c, out, calls, depth + 1);
}

const VarDecl* referenced_variable(const Expr* e) {
  if (const auto* dr = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr))
    if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) return vd->getCanonicalDecl();
  return nullptr;
}

// Whether statement s (a loop) changes one of `vars`: assigns it (=, +=, ...), steps it (++, --), or
// hands its address to a call other than an allocation (cuMemGetAddressRange(&base, ...) rebinds it;
// cudaMalloc(&tmp, ...) makes a buffer of the submission's own).
bool changes_any(const Stmt* s, const std::set<const VarDecl*>& vars, int depth = 0) {
  if (!s || depth > 256) return false;
  if (const auto* bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp()) {
    if (const VarDecl* v = referenced_variable(bo->getLHS()); v && vars.count(v)) return true;
  } else if (const auto* uo = dyn_cast<UnaryOperator>(s); uo && uo->isIncrementDecrementOp()) {
    if (const VarDecl* v = referenced_variable(uo->getSubExpr()); v && vars.count(v)) return true;
  } else if (const auto* op = dyn_cast<CXXOperatorCallExpr>(s); op && op->isAssignmentOp() && op->getNumArgs() > 0) {
    if (const VarDecl* v = referenced_variable(op->getArg(0)); v && vars.count(v)) return true;
  } else if (const auto* call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* fd = call->getDirectCallee();
    const std::string name = fd ? fd->getNameAsString() : std::string();
    if (name.rfind("cudaMalloc", 0) != 0 && name.rfind("cuMemAlloc", 0) != 0)
      for (const Expr* a : call->arguments())
        if (const auto* addr = dyn_cast<UnaryOperator>(a->IgnoreParenCasts()); addr && addr->getOpcode() == UO_AddrOf)
          if (const VarDecl* v = referenced_variable(addr->getSubExpr()); v && vars.count(v)) return true;
  }
  for (const Stmt* c : s->children())
    if (changes_any(c, vars, depth + 1)) return true;
  return false;
}

}  // namespace

// Whether the address a call in a loop is given changes from one iteration to the next: it reads a
// variable that an enclosing loop steps or assigns (a scan: `cudaMemset(base + i * step, ...)`), or is
// a call's result. Clearing the same buffer on every iteration of an iterative algorithm is not.
bool Collector::varies_in_loop(const Expr* address) const {
  std::set<const VarDecl*> vars;
  bool calls = false;
  variables_in(address, vars, calls);
  if (calls) return true;
  if (vars.empty()) return false;
  for (size_t i = stack_.size(); i-- > 0;) {
    const Stmt* s = stack_[i];
    if ((isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) && changes_any(s, vars))
      return true;
    if (const auto* range = dyn_cast<CXXForRangeStmt>(s))
      if (const VarDecl* loop_var = range->getLoopVariable(); loop_var && vars.count(loop_var->getCanonicalDecl()))
        return true;
  }
  return false;
}

// The object a member call is made on (`x` of `x.zero_()`), whatever form the member expression
// takes in a template; null for other callees.
const Expr* Collector::member_base(const Expr* callee) {
  if (!callee) return nullptr;
  callee = callee->IgnoreParenImpCasts();
  if (const auto* me = dyn_cast<MemberExpr>(callee)) return me->getBase();
  if (const auto* um = dyn_cast<UnresolvedMemberExpr>(callee)) return um->isImplicitAccess() ? nullptr : um->getBase();
  if (const auto* dm = dyn_cast<CXXDependentScopeMemberExpr>(callee))
    return dm->isImplicitAccess() ? nullptr : dm->getBase();
  return nullptr;
}

// The position of the parameter an expression is rooted in, or -1.
int Collector::param_index_of(const Expr* e) {
  if (!e) return -1;
  if (const auto* p = dyn_cast_or_null<ParmVarDecl>(root_decl(e))) return static_cast<int>(p->getFunctionScopeIndex());
  return -1;
}

// The tensor whose storage a pointer expression is (`x.data_ptr<float>()`, `(void*)x.data_ptr()`,
// `static_cast<float*>(x.mutable_data_ptr())`, an offset into one, `x.data_ptr<float>() + 16`, or a
// pointer local bound to one): the tensor expression, or null for anything else.
const Expr* Collector::storage_root(const Expr* e, int depth) const {
  if (!e || depth > 8) return nullptr;
  e = e->IgnoreParenCasts();
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    const auto* vd = dyn_cast<VarDecl>(ref->getDecl());
    if (!vd || !vd->hasLocalStorage()) return nullptr;
    // A raw pointer parameter is storage of its own (LeetGPU's `solve(const float* A, float* C, int N)`).
    if (isa<ParmVarDecl>(vd) && vd->getType()->isPointerType()) return ref;
    auto it = state_.storage_of.find(vd->getCanonicalDecl());
    return it != state_.storage_of.end() ? it->second : nullptr;
  }
  if (const auto* bin = dyn_cast<BinaryOperator>(e); bin && bin->isAdditiveOp()) {
    if (bin->getLHS()->getType()->isPointerType()) return storage_root(bin->getLHS(), depth + 1);
    if (bin->getRHS()->getType()->isPointerType()) return storage_root(bin->getRHS(), depth + 1);
    return nullptr;
  }
  const auto* call = dyn_cast<CallExpr>(e);
  if (!call) return nullptr;
  const Expr* callee = call->getCallee()->IgnoreParenImpCasts();
  std::string name;
  if (const auto* me = dyn_cast<MemberExpr>(callee))
    name = me->getMemberNameInfo().getAsString();
  else if (const auto* um = dyn_cast<UnresolvedMemberExpr>(callee))
    name = um->getMemberName().getAsString();
  else if (const auto* dm = dyn_cast<CXXDependentScopeMemberExpr>(callee))
    name = dm->getMember().getAsString();
  const Expr* base = member_base(callee);
  if (!base || !is_storage_accessor(name)) return nullptr;
  base = base->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<DeclRefExpr>(base);
  if (!ref) return nullptr;
  const std::string type = ref->getDecl()->getType().getAsString();
  return type.find("Tensor") != std::string::npos ? base : nullptr;
}

ReceiverKind Collector::receiver_of(const Expr* base) const {
  if (!base) return ReceiverKind::None;
  base = base->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(base)) return ReceiverKind::Self;
  if (const ValueDecl* d = root_decl(base)) {
    if (isa<ParmVarDecl>(d)) return ReceiverKind::Param;
    return ReceiverKind::Value;
  }
  return ReceiverKind::Value;
}

std::string Collector::qualifier_text(NestedNameSpecifier* q) const {
  if (!q) return {};
  std::string s;
  llvm::raw_string_ostream os(s);
  q->print(os, ctx_.getPrintingPolicy());
  return os.str();
}

std::string Collector::unique_decl_name(const OverloadExpr* o) {
  std::string name;
  for (const NamedDecl* d : o->decls()) {
    const NamedDecl* target = d->getUnderlyingDecl();
    if (const auto* ft = dyn_cast<FunctionTemplateDecl>(target)) target = ft->getTemplatedDecl();
    std::string q = qualified_name(target);
    if (name.empty())
      name = q;
    else if (name != q)
      return {};
  }
  return name;
}

bool Collector::defined_here(const FunctionDecl* fd) const {
  const FunctionDecl* def = nullptr;
  if (fd->hasBody(def) && def && in_main(def->getLocation())) return true;
  return false;
}

Collector::Resolution Collector::resolve(const Expr* callee_expr) const {
  Resolution r;
  if (!callee_expr) return r;
  const Expr* c = callee_expr->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(c); u && u->getOpcode() == UO_Deref)
    c = u->getSubExpr()->IgnoreParenImpCasts();
  if (const auto* dr = dyn_cast<DeclRefExpr>(c)) {
    r.name_loc = dr->getLocation();
    if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) {
      r.resolved = asm_label_target(fd);
      if (r.resolved.empty()) r.resolved = qualified_name(fd);
      r.local_target = defined_here(fd);
      r.receiver =
          fd->getDeclContext()->isNamespace() && dr->getQualifier() ? ReceiverKind::Module : ReceiverKind::None;
    } else if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) {
      // A function pointer bound once: follow its initializer (`auto f = &at::matmul; f(a, b)`).
      const Expr* init = vd->getAnyInitializer();
      const FunctionDecl* target = nullptr;
      if (init) {
        const Expr* ie = init->IgnoreParenCasts();
        if (const auto* u = dyn_cast<UnaryOperator>(ie); u && u->getOpcode() == UO_AddrOf)
          ie = u->getSubExpr()->IgnoreParenCasts();
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

void Collector::collect_arg_names(const Stmt* s, std::vector<std::string>& out) const {
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
    if (std::string n = cast_enumerator(e); !n.empty() && std::find(out.begin(), out.end(), n) == out.end())
      out.push_back(n);
    if (const auto* ce = dyn_cast<CastExpr>(e))
      if (ce->getCastKind() == CK_IntegralToPointer &&
          std::find(out.begin(), out.end(), "@int-to-pointer") == out.end())
        out.push_back("@int-to-pointer");
  }
  for (const Stmt* c : s->children()) collect_arg_names(c, out);
}

void Collector::add_call(const Expr* call, const Expr* callee) {
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
    if (const auto* sl = dyn_cast<StringLiteral>(a->IgnoreParenImpCasts()))
      c.string_args.push_back(sl->getString().str());
    collect_arg_names(a, c.keywords);
  }
  if (in_loop()) {
    c.keywords.push_back("@in-loop");
    // Only memsets are judged for it (cpp-memory-scan); the walk of the loop is not paid for other calls.
    const bool memset = c.resolved.rfind("cudaMemset", 0) == 0 || c.resolved.rfind("cuMemsetD", 0) == 0;
    if (memset && !args.empty() && varies_in_loop(args.front())) c.keywords.push_back("@loop-varying");
  }
  // An ATen operator looked up by its schema name is a call of that operator.
  if (std::string op = dispatcher_operator(c.resolved, c.string_args); !op.empty()) {
    c.resolved = op;
    c.method = std::string(last_component(op));
    c.keywords.push_back("@dispatcher");
  }
  // Python bindings: m.def("name", &fn) / TORCH_LIBRARY m.impl("name", fn) export `fn` as `name`.
  if ((c.resolved == "pybind11::module_::def" || c.resolved == "torch::Library::def" ||
       c.resolved == "torch::Library::impl") &&
      args.size() >= 2) {
    const Expr* target = args[1]->IgnoreParenCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(target); u && u->getOpcode() == UO_AddrOf)
      target = u->getSubExpr()->IgnoreParenCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(target))
      if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) c.keywords.push_back("@bind:" + qualified_name(fd));
  }
  if (c.receiver == ReceiverKind::Param) c.param_index = param_index_of(member_base(callee));
  // cudaMemset(x.data_ptr<float>(), ...): the call writes the storage of a tensor parameter.
  if (writes_first_argument(c.resolved) && !args.empty())
    if (const int written = param_index_of(storage_root(args.front())); written >= 0) {
      c.writes_param = true;
      c.param_index = written;
    }
  c.function = current_function();
  c.module = in_.module;
  c.guard = guard();
  c.span = span_of(call->getSourceRange());
  if (tensor_arithmetic(r.resolved)) {
    const auto operands = operands_of(call);
    c.scalar_operands = !operands.empty() &&
                        std::all_of(operands.begin(), operands.end(), [&](const Expr* o) { return one_element(o); });
  }
  if (auto o = offsets(callee->getSourceRange())) callee_ranges_.push_back(*o);
  note_call_effects(call, callee, r, args, c.keywords);
  facts_.calls.push_back(std::move(c));
}

std::vector<const Expr*> Collector::operands_of(const Expr* call) {
  std::vector<const Expr*> out;
  if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) out.push_back(mc->getImplicitObjectArgument());
  if (const auto* ce = dyn_cast<CallExpr>(call))
    for (const Expr* a : ce->arguments()) out.push_back(a);
  return out;
}

const Expr* Collector::strip(const Expr* e) {
  for (int i = 0; e && i < 8; ++i) {
    const Expr* next = e->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto* ce = dyn_cast<CXXConstructExpr>(next);
        ce && ce->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(ce))
      next = ce->getArg(0);
    if (const auto* mt = dyn_cast<MaterializeTemporaryExpr>(next)) next = mt->getSubExpr();
    if (const auto* il = dyn_cast<CXXStdInitializerListExpr>(next)) next = il->getSubExpr();
    if (next == e) break;
    e = next;
  }
  return e;
}

bool Collector::one_element_sizes(const Expr* e) {
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

bool Collector::one_element(const Expr* e, int depth) const {
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

void Collector::add_construction(const CXXConstructExpr* e, const std::string& cls) {
  Call c;
  std::string last(last_component(cls));
  c.resolved = cls + "::" + last;
  c.method = last;
  c.callee = trim_spaces(text_of(e->getSourceRange()));
  if (c.callee.size() > 80) c.callee = cls;
  c.receiver = ReceiverKind::None;
  for (const Expr* a : e->arguments()) collect_arg_names(a, c.keywords);
  place_call(std::move(c), e->getSourceRange());
}

void Collector::place_call(Call c, SourceRange range) {
  if (in_loop()) c.keywords.push_back("@in-loop");
  c.function = current_function();
  c.module = in_.module;
  c.guard = guard();
  c.span = span_of(range);
  facts_.calls.push_back(std::move(c));
}

void Collector::note_call_effects(const Expr* call, const Expr* callee, const Resolution& r,
                                  const std::vector<const Expr*>& args, const std::vector<std::string>& names) {
  if (auto dt = conversion_function_dtype(r.resolved)) {
    // __float2half(0.0f): a constant in the target type, not a conversion of computed values.
    const bool literal = !args.empty() && std::all_of(args.begin(), args.end(), [](const Expr* a) {
      a = a->IgnoreParenImpCasts();
      if (const auto* u = dyn_cast<UnaryOperator>(a); u && u->getOpcode() == UO_Minus)
        a = u->getSubExpr()->IgnoreParenImpCasts();
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
    if (n == "CUBLAS_TF32_TENSOR_OP_MATH" || n == "CUBLAS_COMPUTE_32F_FAST_TF32")
      add_cast("tf32", "flag", call->getSourceRange());
    if (n == "CUBLAS_COMPUTE_32F_FAST_16F" || n == "CUBLAS_COMPUTE_16F")
      add_cast("torch.float16", "flag", call->getSourceRange());
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
  bool aten =
      r.resolved.rfind("at::", 0) == 0 || r.resolved.rfind("torch::", 0) == 0 || r.resolved.rfind("c10::", 0) == 0;
  // `out.add_(b)` and `out += b` write `out`.
  bool in_place = aten && !r.name.empty() &&
                  ((r.name.back() == '_' && r.name != "data_ptr_") || r.name == "operator+=" ||
                   r.name == "operator-=" || r.name == "operator*=" || r.name == "operator/=");
  if (in_place) {
    const Expr* receiver = nullptr;
    if (const auto* me = dyn_cast<MemberExpr>(callee->IgnoreParenImpCasts())) receiver = me->getBase();
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(call); op && op->getNumArgs() > 0) receiver = op->getArg(0);
    if (const auto* vd = dyn_cast_or_null<VarDecl>(root_decl(receiver)))
      state_.written_vars.insert(vd->getCanonicalDecl());
  }
  if (!aten) {
    // A tensor local handed whole to a free function (`fill_into(out)`) is written when that function
    // writes its parameter, which cuda::link decides (Return::handed); anything else named is written.
    const auto* plain = dyn_cast<CallExpr>(call);
    const FunctionDecl* target =
        plain && !isa<CXXMemberCallExpr>(plain) && !isa<CXXOperatorCallExpr>(plain) && !isa<CUDAKernelCallExpr>(plain)
            ? plain->getDirectCallee()
            : nullptr;
    for (size_t i = 0; i < args.size(); ++i) {
      const auto* dr = target ? dyn_cast<DeclRefExpr>(strip_copies(args[i])) : nullptr;
      const auto* vd = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
      if (vd && vd->isLocalVarDecl() && is_tensor_record(vd->getType()))
        state_.handed_vars[vd->getCanonicalDecl()].emplace(qualified_name(target), i);
      else
        mark_vars(args[i]);
    }
  }
}

void Collector::mark_vars(const Stmt* s) {
  if (!s) return;
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* vd = dyn_cast<VarDecl>(dr->getDecl())) state_.written_vars.insert(vd->getCanonicalDecl());
  for (const Stmt* c : s->children()) mark_vars(c);
}

std::optional<std::string> Collector::dtype_constant(const Expr* a) const {
  a = a->IgnoreParenImpCasts();
  if (const auto* ce = dyn_cast<CXXConstructExpr>(a); ce && ce->getNumArgs() == 1)
    a = ce->getArg(0)->IgnoreParenImpCasts();
  if (const auto* dr = dyn_cast<DeclRefExpr>(a)) {
    const ValueDecl* d = dr->getDecl();
    if (isa<EnumConstantDecl>(d) || (isa<VarDecl>(d) && cast<VarDecl>(d)->getType().isConstQualified()))
      if (type_name(d->getType()) == "c10::ScalarType") return low_precision_dtype(qualified_name(d));
  }
  return std::nullopt;
}

void Collector::note_operator_cast(const CXXOperatorCallExpr* op, const FunctionDecl* fd) {
  if (!fd || op->getOperator() != OO_Equal || op->getNumArgs() < 2) return;
  const auto* md = dyn_cast<CXXMethodDecl>(fd);
  if (!md) return;
  if (auto dt = low_precision_dtype(qualified_name(md->getParent()))) {
    QualType at = op->getArg(1)->IgnoreParenImpCasts()->getType();
    if (!at.isNull() && at->isFloatingType()) add_cast(*dt, "type", op->getSourceRange());
  }
}

void Collector::add_cast(const std::string& dtype, const std::string& via, SourceRange range, bool setup) {
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

void Collector::add_name(const std::string& name, SourceRange range) {
  if (!in_main(range.getBegin())) return;
  NameRef n;
  n.resolved = name;
  n.function = current_function();
  n.span = span_of(range);
  facts_.names.push_back(std::move(n));
}

}  // namespace kgate::cuda::collector
