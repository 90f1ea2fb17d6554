// The Collector's parameter reads: tensor and raw pointer parameters of a host function whose data the
// body never reads ("param-unread:<i>", the same fact as the tree-sitter engine's ts_cuda_reads.cpp). A use is a
// read unless it asks for metadata (x.size(0), x.options(), through macros such as CHECK_INPUT too,
// which Clang sees expanded), hands the tensor to a maker of a like-shaped one (at::empty_like(x)),
// hands it whole to a function called directly ("param-handed:<i>:<j>:<callee>": cuda::link decides
// whether the callee reads it), binds it to a local (`auto xc = x.contiguous();`: read where the local
// is), makes a value through side-effect-free methods that is thrown away (`x.sum();`), or makes
// one that only picks a branch (`if (x.abs().amax().item<float>() > 1e30f)`, TORCH_CHECK, a pointer
// tested for null).
#include "analyzers/cuda/clang/clang_collector_impl.h"

namespace kgate::cuda::collector {

const Expr* strip_copies(const Expr* e) {
  for (;;) {
    e = e->IgnoreParenImpCasts();
    if (const auto* ew = dyn_cast<ExprWithCleanups>(e))
      e = ew->getSubExpr();
    else if (const auto* mt = dyn_cast<MaterializeTemporaryExpr>(e))
      e = mt->getSubExpr();
    else if (const auto* bt = dyn_cast<CXXBindTemporaryExpr>(e))
      e = bt->getSubExpr();
    else if (const auto* ce = dyn_cast<CXXConstructExpr>(e);
             ce && ce->getNumArgs() == 1 && ce->getConstructor()->isCopyOrMoveConstructor())
      e = ce->getArg(0);
    else
      return e;
  }
}

namespace {

// The parameters, and the locals bound to them, with the parameter's position.
using ParamIndex = std::map<const VarDecl*, size_t>;

const VarDecl* param_ref(const Expr* e, const ParamIndex& params) {
  if (!e) return nullptr;
  const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  return v && params.count(v) ? v : nullptr;
}

// A parameter handed on whole: `helper(x)` with x by reference, or copied into a by-value parameter.
const VarDecl* handed_param(const Expr* e, const ParamIndex& params) {
  return e ? param_ref(strip_copies(e), params) : nullptr;
}

// The parameter (or bound local) at the root of a chain of side-effect-free methods (`x`,
// `x.contiguous().view(-1)`), with the chain's arguments in `args`; null for anything else, and for a
// chain through a metadata method (x.size(0) is a number, not the tensor's data).
const VarDecl* pure_chain_root(const Expr* e, const ParamIndex& params, std::vector<const Expr*>& args) {
  if (!e) return nullptr;
  e = strip_copies(e);
  while (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl* md = mc->getMethodDecl();
    if (!md || !md->getDeclName().isIdentifier() || tensor_metadata_only_method(md->getName()) ||
        !pure_tensor_method(md->getName()))
      return nullptr;
    for (const Expr* a : mc->arguments()) args.push_back(a);
    e = strip_copies(mc->getImplicitObjectArgument());
  }
  return param_ref(e, params);
}

using Handed = std::vector<std::vector<std::pair<size_t, std::string>>>;  // per parameter: (position, callee)

void scan_reads(const Stmt* s, ParamIndex& params, std::vector<char>& read, Handed& handed);

// A statement that makes a value through side-effect-free methods of a parameter and throws it away
// (`x.sum();`, `(void)x.contiguous();`): only the chain's arguments are scanned.
bool discarded_chain(const Stmt* s, ParamIndex& params, std::vector<char>& read, Handed& handed) {
  const auto* e = dyn_cast_or_null<Expr>(s);
  if (!e) return false;
  e = e->IgnoreParens();
  if (const auto* ew = dyn_cast<ExprWithCleanups>(e)) e = ew->getSubExpr()->IgnoreParens();
  if (const auto* cast = dyn_cast<CStyleCastExpr>(e); cast && cast->getType()->isVoidType()) e = cast->getSubExpr();
  if (!isa<CXXMemberCallExpr>(strip_copies(e))) return false;
  std::vector<const Expr*> args;
  if (!pure_chain_root(e, params, args)) return false;
  for (const Expr* a : args) scan_reads(a, params, read, handed);
  return true;
}

// The test of a branch (an if's, a while's or a ?:'s condition; TORCH_CHECK expands to an if): a value
// made from a parameter through side-effect-free methods (`x.abs().amax().item<float>()`), combined by
// operators, only picks the branch and is no read; anything else in it is scanned as usual.
void scan_condition(const Expr* e, ParamIndex& params, std::vector<char>& read, Handed& handed) {
  if (!e) return;
  e = strip_copies(e);
  if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(e)) {
    switch (oc->getOperator()) {
      case OO_Less:
      case OO_Greater:
      case OO_LessEqual:
      case OO_GreaterEqual:
      case OO_EqualEqual:
      case OO_ExclaimEqual:
      case OO_AmpAmp:
      case OO_PipePipe:
      case OO_Exclaim:
        for (const Expr* a : oc->arguments()) scan_condition(a, params, read, handed);
        return;
      default:
        break;
    }
  }
  if (const auto* bo = dyn_cast<BinaryOperator>(e); bo && !bo->isAssignmentOp()) {
    scan_condition(bo->getLHS(), params, read, handed);
    scan_condition(bo->getRHS(), params, read, handed);
    return;
  }
  if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && !uo->isIncrementDecrementOp()) {
    scan_condition(uo->getSubExpr(), params, read, handed);
    return;
  }
  std::vector<const Expr*> args;
  if (isa<CXXMemberCallExpr>(e) && pure_chain_root(e, params, args)) {
    for (const Expr* a : args) scan_reads(a, params, read, handed);
    return;
  }
  // A raw pointer tested for null (`if (out == nullptr) return;`, `if (!out)`) reads no data.
  if (const VarDecl* v = param_ref(e, params); v && v->getType()->isPointerType()) return;
  scan_reads(e, params, read, handed);
}

void scan_reads(const Stmt* s, ParamIndex& params, std::vector<char>& read, Handed& handed) {
  if (!s) return;
  if (const auto* ifs = dyn_cast<IfStmt>(s)) {
    scan_reads(ifs->getInit(), params, read, handed);
    scan_reads(ifs->getConditionVariableDeclStmt(), params, read, handed);
    scan_condition(ifs->getCond(), params, read, handed);
    scan_reads(ifs->getThen(), params, read, handed);
    scan_reads(ifs->getElse(), params, read, handed);
    return;
  }
  if (const auto* ws = dyn_cast<WhileStmt>(s)) {
    scan_reads(ws->getConditionVariableDeclStmt(), params, read, handed);
    scan_condition(ws->getCond(), params, read, handed);
    scan_reads(ws->getBody(), params, read, handed);
    return;
  }
  if (const auto* co = dyn_cast<ConditionalOperator>(s)) {
    scan_condition(co->getCond(), params, read, handed);
    scan_reads(co->getTrueExpr(), params, read, handed);
    scan_reads(co->getFalseExpr(), params, read, handed);
    return;
  }
  if (const auto* cs = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* c : cs->body())
      if (!discarded_chain(c, params, read, handed)) scan_reads(c, params, read, handed);
    return;
  }
  // `auto xc = x.contiguous();`: xc stands for x from here on.
  if (const auto* ds = dyn_cast<DeclStmt>(s)) {
    for (const Decl* d : ds->decls()) {
      const auto* v = dyn_cast<VarDecl>(d);
      if (!v || !v->hasInit()) continue;
      std::vector<const Expr*> args;
      if (const VarDecl* root = pure_chain_root(v->getInit(), params, args)) {
        const size_t index = params.at(root);
        params[v] = index;
        for (const Expr* a : args) scan_reads(a, params, read, handed);
      } else {
        scan_reads(v->getInit(), params, read, handed);
      }
    }
    return;
  }
  if (const auto* mc = dyn_cast<CXXMemberCallExpr>(s)) {
    const CXXMethodDecl* md = mc->getMethodDecl();
    if (md && md->getDeclName().isIdentifier() && param_ref(mc->getImplicitObjectArgument(), params) &&
        tensor_metadata_only_method(md->getName())) {
      for (const Expr* a : mc->arguments()) scan_reads(a, params, read, handed);
      return;
    }
  } else if (const auto* ce = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* f = ce->getDirectCallee();
    if (f && ce->getNumArgs() > 0 && like_maker(qualified_name(f)) && param_ref(ce->getArg(0), params)) {
      for (unsigned i = 1; i < ce->getNumArgs(); ++i) scan_reads(ce->getArg(i), params, read, handed);
      return;
    }
    if (f && !isa<CXXOperatorCallExpr>(ce) && !isa<CUDAKernelCallExpr>(ce)) {
      for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
        if (const VarDecl* p = handed_param(ce->getArg(i), params))
          handed[params.at(p)].emplace_back(i, qualified_name(f));
        else
          scan_reads(ce->getArg(i), params, read, handed);
      }
      return;
    }
  }
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* v = dyn_cast<VarDecl>(dr->getDecl()))
      if (auto it = params.find(v); it != params.end()) read[it->second] = 1;
  // A lambda reads what its body reads (a captured parameter is named there as itself) and what its
  // init-captures are initialised from; capturing alone ([&], [x]) copies no values.
  if (const auto* le = dyn_cast<LambdaExpr>(s)) {
    for (const LambdaCapture& c : le->captures())
      if (c.capturesVariable())
        if (const auto* v = dyn_cast<VarDecl>(c.getCapturedVar()); v && v->isInitCapture())
          scan_reads(v->getInit(), params, read, handed);
    scan_reads(le->getBody(), params, read, handed);
    return;
  }
  for (const Stmt* c : s->children()) scan_reads(c, params, read, handed);
}

}  // namespace

std::vector<std::string> Collector::param_read_decorators(const FunctionDecl* fd) const {
  std::vector<std::string> out;
  if (!fd->getBody() || contains_errors(fd->getBody()) || body_has_errors(fd)) return out;
  ParamIndex params;
  std::vector<char> tensor(fd->getNumParams(), 0);
  // Raw pointer parameters too: a C-linkage entry (LeetGPU's `extern "C" void solve(const float* A,
  // float* C, int N)`) gets its device buffers in them, and hands them on to helpers of the file
  // (input-never-read and output-unwritten judge them).
  for (unsigned i = 0; i < fd->getNumParams(); ++i) {
    const ParmVarDecl* p = fd->getParamDecl(i);
    if (!p->getName().empty() && (is_tensor_record(p->getType()) || p->getType()->isPointerType())) {
      params[p] = i;
      tensor[i] = 1;
    }
  }
  if (params.empty()) return out;
  std::vector<char> read(fd->getNumParams(), 0);
  Handed handed(fd->getNumParams());
  scan_reads(fd->getBody(), params, read, handed);
  for (size_t i = 0; i < read.size(); ++i) {
    if (read[i] || !tensor[i]) continue;
    if (handed[i].empty()) out.push_back("param-unread:" + std::to_string(i));
    for (const auto& [position, callee] : handed[i]) {
      std::string d = param_handed_decorator(i, position, callee);
      if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace kgate::cuda::collector
